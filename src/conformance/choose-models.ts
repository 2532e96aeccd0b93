// Which models the run uses, from GET /models: valid chat requests name one the deployment serves (so they pass
// 404 and reach the real path), the credits sequence needs a paid one, and a free one is exercised when listed.
// This is also the run's first request, so a refused API key stops the run with a clear message.
import type { OpenApiDocument } from './openapi-document.js';
import type { Sender } from './http-exchange.js';
import { buildRequest, mainCredential } from './request-spec.js';

export interface ChosenModels {
  /** For valid chat requests: the requested one, else a free one, else the cheapest paid one. */
  model?: string;
  paidModel?: string;
  freeModel?: string;
}

interface ListedModel {
  id: string;
  access_mode?: string;
  pricing?: { prompt?: string; completion?: string };
}

export class PreflightError extends Error {}

export async function chooseModels(doc: OpenApiDocument, sender: Sender, apiKey: string, requested?: string): Promise<ChosenModels> {
  const op = doc.operations.find((o) => o.operationId === 'listModels');
  if (!op) return { model: requested, paidModel: requested };
  const ex = await sender.send(buildRequest(op, { params: {} }, { credential: mainCredential(apiKey), description: 'list models' }));
  if (ex.status === 401) throw new PreflightError(`the API key was refused: GET ${sender.baseUrl}/models answered 401`);
  if (ex.status !== 200) throw new PreflightError(`GET ${sender.baseUrl}/models answered ${ex.status ?? ex.error}: is --base-url the API root?`);
  let listed: ListedModel[] = [];
  try {
    listed = (JSON.parse(ex.body).data ?? []).filter((m: ListedModel) => typeof m?.id === 'string');
  } catch {
    throw new PreflightError(`GET ${sender.baseUrl}/models did not answer JSON`);
  }
  if (requested && !listed.some((m) => m.id === requested)) throw new PreflightError(`--model ${requested} is not listed by GET /models`);
  const price = (m: ListedModel) => Number(m.pricing?.prompt ?? Infinity) + Number(m.pricing?.completion ?? Infinity);
  const free = listed.find((m) => m.access_mode === 'free');
  const paid = listed.filter((m) => m.access_mode === 'credits').sort((a, b) => price(a) - price(b));
  const requestedEntry = listed.find((m) => m.id === requested);
  return {
    model: requested ?? free?.id ?? paid[0]?.id,
    paidModel: requestedEntry?.access_mode === 'credits' ? requestedEntry.id : paid[0]?.id,
    freeModel: free?.id,
  };
}
