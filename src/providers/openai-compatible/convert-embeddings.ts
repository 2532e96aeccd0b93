// The embeddings call of OpenAI-compatible vendors (https://platform.openai.com/docs/api-reference/embeddings):
// internal EmbeddingCall → `POST {base}/embeddings`, and its `{data: [{index, embedding}], usage}` answer back. One
// request carries every input (OpenAI takes 2,048, the gateway's own limit).
import type { EmbeddingBatchResult, EmbeddingCall, EmbeddingVector } from '../../core/embedding.js';
import type { AdapterContext, UpstreamRequest } from '../adapter.js';
import type { EmbeddingAdapter, EmbeddingUpstreamRequest } from '../embedding-adapter.js';
import { inputCount } from '../../core/embedding.js';
import { isRecord, readArray, readCount, readRecord } from '../payload-readers.js';
import { UpstreamPayloadError } from '../upstream-payload-error.js';
import { embeddingDialect } from './embedding-dialects.js';
import { mapError } from './map-error.js';
import { resolveVendorProfile } from './vendors.js';

export function embeddingsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/embeddings`;
}

export function buildEmbeddingBody(call: EmbeddingCall, ctx: AdapterContext): Record<string, unknown> {
  const dialect = embeddingDialect(ctx.provider);
  const input = call.inputs.kind === 'text' ? call.inputs.texts : call.inputs.tokens;
  const body: Record<string, unknown> = { model: ctx.model.upstreamModel, input };
  if (call.dimensions !== undefined) body[dialect.dimensionsField] = call.dimensions;
  // Asked for only when the client wants base64: the vendor's bytes then pass through without a float round trip.
  if (call.encoding === 'base64' && dialect.base64) body.encoding_format = 'base64';
  if (call.user !== undefined && dialect.acceptsUser) body.user = call.user;
  return body;
}

function buildRequests(call: EmbeddingCall, ctx: AdapterContext): EmbeddingUpstreamRequest[] {
  const profile = resolveVendorProfile(ctx.provider);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (ctx.provider.apiKey) headers.authorization = `Bearer ${ctx.provider.apiKey}`;
  for (const [name, value] of Object.entries(ctx.provider.headers ?? {})) headers[name.toLowerCase()] = value;
  const baseUrl = ctx.provider.baseUrl || profile.defaultBaseUrl;
  if (!baseUrl) throw new Error(`Provider ${ctx.provider.id} has no base URL configured`);
  const upstream: UpstreamRequest = {
    method: 'POST',
    url: embeddingsUrl(baseUrl),
    headers,
    body: JSON.stringify(buildEmbeddingBody(call, ctx)),
  };
  return [{ upstream, inputs: inputCount(call.inputs) }];
}

function readVector(value: unknown): EmbeddingVector | undefined {
  if (typeof value === 'string') return value;
  const numbers = readArray(value);
  return numbers?.every((n) => typeof n === 'number' && Number.isFinite(n)) ? (numbers as number[]) : undefined;
}

/** `data` in `index` order (OpenAI sends it so; the index, not the position, says which input a vector is for). */
export function parseEmbeddingResponse(body: unknown, expected: number): EmbeddingBatchResult {
  const payload = UpstreamPayloadError.parseJson(body);
  const data = readArray(readRecord(payload)?.data);
  if (!data) {
    if (isRecord(payload) && payload.error !== undefined)
      throw new UpstreamPayloadError(mapError({ status: 502, body: payload }));
    throw UpstreamPayloadError.malformed('no data array in the embeddings response');
  }
  const vectors: (EmbeddingVector | undefined)[] = new Array(expected);
  data.forEach((item, position) => {
    const record = readRecord(item);
    const index = typeof record?.index === 'number' ? record.index : position;
    const vector = readVector(record?.embedding);
    if (
      !Number.isInteger(index) ||
      index < 0 ||
      index >= expected ||
      vector === undefined ||
      vectors[index] !== undefined
    ) {
      throw UpstreamPayloadError.malformed(
        `embeddings response item ${position} is not a vector for one of the ${expected} inputs`,
      );
    }
    vectors[index] = vector;
  });
  if (data.length !== expected) throw UpstreamPayloadError.malformed(`${data.length} vectors for ${expected} inputs`);
  const usage = readRecord(readRecord(payload)?.usage);
  return { vectors: vectors as EmbeddingVector[], promptTokens: readCount(usage?.prompt_tokens) };
}

export function createOpenAICompatibleEmbeddings(options: { now?: () => number } = {}): EmbeddingAdapter {
  const now = options.now ?? Date.now;
  return {
    buildRequests,
    parseResponse: (body, expected) => parseEmbeddingResponse(body, expected),
    mapError: (answer, ctx) => mapError(answer, { providerId: ctx.provider.id, now: now(), endpoint: 'embeddings' }),
    acceptsTokenInput: (provider) => embeddingDialect(provider).tokenInput,
  };
}
