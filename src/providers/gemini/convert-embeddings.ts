// The Gemini embeddings API (https://ai.google.dev/api/embeddings): one input → `models/{m}:embedContent`, several →
// `models/{m}:batchEmbedContents`, at most 100 per request (Gemini's limit; more inputs become several requests, in
// order). `dimensions` is `outputDimensionality`. Gemini normalizes only its full-size vectors, so shortened ones are
// normalized here: `dimensions` then means what it means on OpenAI's models. Gemini reports no token counts
// (`usageMetadata` is read when an answer has one); the embeddings flow then bills its estimate and says so.
import type { EmbeddingBatchResult, EmbeddingCall } from '../../core/embedding.js';
import type { AdapterContext } from '../adapter.js';
import type { EmbeddingAdapter, EmbeddingUpstreamRequest } from '../embedding-adapter.js';
import { isRecord, readArray, readCount, readRecord } from '../payload-readers.js';
import { UpstreamPayloadError } from '../upstream-payload-error.js';
import { GEMINI_DEFAULT_BASE_URL } from './convert-request.js';
import { mapGeminiEmbeddedError, mapGeminiError } from './map-error.js';

/** Requests in one batchEmbedContents call at most ("at most 100 requests can be in one batch"). */
export const GEMINI_EMBED_BATCH = 100;

/** `models/{m}` (or a tuned model's own resource name), as Gemini names it in URLs and in batch requests. */
function resourceOf(upstreamModel: string): string {
  return upstreamModel.includes('/') ? upstreamModel : `models/${upstreamModel}`;
}

export function embedUrl(baseUrl: string, upstreamModel: string, batch: boolean): string {
  const base = (baseUrl || GEMINI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const path = resourceOf(upstreamModel).split('/').map(encodeURIComponent).join('/');
  return `${base}/${path}:${batch ? 'batchEmbedContents' : 'embedContent'}`;
}

function embedContentRequest(text: string, call: EmbeddingCall, model?: string): Record<string, unknown> {
  const request: Record<string, unknown> = model === undefined ? {} : { model };
  request.content = { parts: [{ text }] };
  if (call.dimensions !== undefined) request.outputDimensionality = call.dimensions;
  return request;
}

/** The request bodies, in input order: a single input alone uses embedContent. */
interface GeminiEmbedBody {
  batch: boolean;
  body: Record<string, unknown>;
  inputs: number;
}

export function buildEmbeddingBodies(call: EmbeddingCall, upstreamModel: string): GeminiEmbedBody[] {
  if (call.inputs.kind !== 'text')
    throw new Error('Gemini embeddings take text only (the flow refuses token ids first)');
  const texts = call.inputs.texts;
  if (texts.length === 1) return [{ batch: false, body: embedContentRequest(texts[0]!, call), inputs: 1 }];
  const model = resourceOf(upstreamModel);
  const bodies: GeminiEmbedBody[] = [];
  for (let start = 0; start < texts.length; start += GEMINI_EMBED_BATCH) {
    const requests = texts
      .slice(start, start + GEMINI_EMBED_BATCH)
      .map((text) => embedContentRequest(text, call, model));
    bodies.push({ batch: true, body: { requests }, inputs: requests.length });
  }
  return bodies;
}

function buildRequests(call: EmbeddingCall, ctx: AdapterContext): EmbeddingUpstreamRequest[] {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(ctx.provider.headers ?? {})) headers[name.toLowerCase()] = value;
  if (ctx.provider.apiKey) headers['x-goog-api-key'] = ctx.provider.apiKey;
  return buildEmbeddingBodies(call, ctx.model.upstreamModel).map(({ batch, body, inputs }) => ({
    upstream: {
      method: 'POST' as const,
      url: embedUrl(ctx.provider.baseUrl, ctx.model.upstreamModel, batch),
      headers,
      body: JSON.stringify(body),
    },
    inputs,
  }));
}

function readValues(embedding: unknown): number[] | undefined {
  const values = readArray(readRecord(embedding)?.values);
  return values && values.length > 0 && values.every((n) => typeof n === 'number' && Number.isFinite(n))
    ? (values as number[])
    : undefined;
}

/** Scales a vector to unit length (a zero vector stays as it is). */
export function normalize(vector: number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  if (sum === 0) return vector;
  const norm = Math.sqrt(sum);
  return vector.map((x) => x / norm);
}

export function parseGeminiEmbeddings(
  body: unknown,
  expected: number,
  call: EmbeddingCall,
  providerId = 'google',
): EmbeddingBatchResult {
  const payload = UpstreamPayloadError.parseJson(body);
  if (isRecord(payload) && payload.error !== undefined)
    throw new UpstreamPayloadError(mapGeminiEmbeddedError(payload, providerId));
  const record = readRecord(payload);
  const items = record?.embedding !== undefined ? [record.embedding] : readArray(record?.embeddings);
  if (!items) throw UpstreamPayloadError.malformed('no embedding in the Gemini response');
  if (items.length !== expected) throw UpstreamPayloadError.malformed(`${items.length} vectors for ${expected} inputs`);
  const vectors = items.map((item, i) => {
    const values = readValues(item);
    if (!values) throw UpstreamPayloadError.malformed(`Gemini embedding ${i} has no values`);
    return call.dimensions === undefined ? values : normalize(values);
  });
  return { vectors, promptTokens: readCount(readRecord(record?.usageMetadata)?.promptTokenCount) };
}

export function createGeminiEmbeddings(options: { now?: () => number } = {}): EmbeddingAdapter {
  const now = options.now ?? Date.now;
  return {
    buildRequests,
    parseResponse: (body, expected, call, ctx) => parseGeminiEmbeddings(body, expected, call, ctx.provider.id),
    mapError: (answer, ctx) =>
      mapGeminiError(answer, {
        providerId: ctx.provider.id,
        now: now(),
        endpoint: 'embeddings (embedContent, batchEmbedContents)',
      }),
    acceptsTokenInput: () => false,
  };
}
