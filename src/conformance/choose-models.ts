// Which models the run uses. Valid chat requests name one the deployment serves (so they pass 404 and reach the real
// path), the credits sequence needs a paid one, and a free one is exercised when listed. GET /models is a Modelgate
// extension: when it is absent (another implementation) `--model` names the model, and with neither the run goes on
// without one. The first request also checks the API key, through a core operation, so a refused key stops the run
// with a clear message.
import type { OpenApiDocument, Operation } from './openapi-document.js';
import type { Sender } from './http-exchange.js';
import { buildRequest, mainCredential } from './request-spec.js';

export interface ChosenModels {
  /** For valid chat requests: the requested one, else a free one, else the cheapest paid one. */
  model?: string;
  /** For valid embeddings requests (EMBEDDING_OPERATIONS): the cheapest listed embedding model. */
  embeddingModel?: string;
  paidModel?: string;
  freeModel?: string;
  /** Why there is no model list (GET /models absent or failing), when there is none. */
  unlisted?: string;
}

interface ListedModel {
  id: string;
  access_mode?: string;
  pricing?: { prompt?: string; completion?: string };
  architecture?: { output_modalities?: string[] };
}

/** Operations whose requests name an embedding model, not a chat model. */
export const EMBEDDING_OPERATIONS: ReadonlySet<string> = new Set(['createEmbedding']);

const embeds = (m: ListedModel) => m.architecture?.output_modalities?.includes('embeddings') === true;

export class PreflightError extends Error {}

/** The operations whose requests name a model: without one, their valid inputs cannot reach the real path. */
export function needsModel(doc: OpenApiDocument, op: Operation): boolean {
  const body = op.requestBody?.content['application/json'];
  return body !== undefined && doc.resolve(body).schema.properties?.model !== undefined;
}

export async function chooseModels(
  doc: OpenApiDocument,
  sender: Sender,
  apiKey: string,
  requested?: string,
): Promise<ChosenModels> {
  const send = (op: Operation, what: string) =>
    sender.send(buildRequest(op, { params: {} }, { credential: mainCredential(apiKey), description: what }));
  const keys = doc.operations.find((o) => o.operationId === 'listApiKeys');
  if (keys) {
    const ex = await send(keys, 'check the API key');
    if (ex.status === 401)
      throw new PreflightError(`the API key was refused: GET ${sender.baseUrl}/api-keys answered 401`);
    if (ex.status === undefined)
      throw new PreflightError(`GET ${sender.baseUrl}/api-keys: ${ex.error}: is --base-url right?`);
  }
  const op = doc.operations.find((o) => o.operationId === 'listModels');
  if (!op) return { model: requested, paidModel: requested, unlisted: 'the document has no listModels' };
  const ex = await send(op, 'list models');
  if (ex.status === 401) throw new PreflightError(`the API key was refused: GET ${sender.baseUrl}/models answered 401`);
  // Not an abort: the model list is an extension; route_implemented and the checks report what is wrong with it.
  if (ex.status !== 200)
    return { model: requested, paidModel: requested, unlisted: `GET /models answered ${ex.status ?? ex.error}` };
  let all: ListedModel[] = [];
  try {
    all = (JSON.parse(ex.body).data ?? []).filter((m: ListedModel) => typeof m?.id === 'string');
  } catch {
    return { model: requested, paidModel: requested, unlisted: 'GET /models did not answer a JSON model list' };
  }
  // Embedding models answer only the embeddings operation: they are never the model of a chat request.
  const listed = all.filter((m) => !embeds(m));
  if (requested && !listed.some((m) => m.id === requested))
    throw new PreflightError(`--model ${requested} is not listed by GET /models`);
  const price = (m: ListedModel) => Number(m.pricing?.prompt ?? Infinity) + Number(m.pricing?.completion ?? Infinity);
  const free = listed.find((m) => m.access_mode === 'free');
  const paid = listed.filter((m) => m.access_mode === 'credits').sort((a, b) => price(a) - price(b));
  const requestedEntry = listed.find((m) => m.id === requested);
  const embedding = all.filter(embeds).sort((a, b) => price(a) - price(b))[0];
  return {
    embeddingModel: embedding?.id,
    model: requested ?? free?.id ?? paid[0]?.id,
    paidModel: requestedEntry?.access_mode === 'credits' ? requestedEntry.id : paid[0]?.id,
    freeModel: free?.id,
  };
}
