// The Gemini embeddings translation: embedContent for one input, batchEmbedContents in requests of at most 100, the
// dimensions as outputDimensionality, shortened vectors normalized, recorded answers and errors read back.
import { describe, expect, it } from 'vitest';
import {
  buildEmbeddingBodies,
  createGeminiEmbeddings,
  embedUrl,
  GEMINI_EMBED_BATCH,
  normalize,
  parseGeminiEmbeddings,
} from '../../../src/providers/gemini/convert-embeddings.js';
import { UpstreamPayloadError } from '../../../src/providers/upstream-payload-error.js';
import type { EmbeddingCall } from '../../../src/core/embedding.js';
import { geminiContext, loadJson } from './helpers.js';

const adapter = createGeminiEmbeddings({ now: () => 0 });
const call = (texts: string[], dimensions?: number): EmbeddingCall => ({
  inputs: { kind: 'text', texts },
  encoding: 'float',
  ...(dimensions ? { dimensions } : {}),
});
const ctx = geminiContext({ id: 'google/gemini-embedding-001', upstreamModel: 'gemini-embedding-001' });

describe('the vendor requests', () => {
  it('one input: embedContent, the key in x-goog-api-key', () => {
    const [request, ...rest] = adapter.buildRequests(call(['hello'], 768), ctx);
    expect(rest).toEqual([]);
    expect(request.upstream.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-embedding-001:embedContent',
    );
    expect(request.upstream.headers['x-goog-api-key']).toBe('AIzaTestKey0123456789');
    expect(JSON.parse(request.upstream.body)).toEqual({
      content: { parts: [{ text: 'hello' }] },
      outputDimensionality: 768,
    });
  });

  it('several inputs: batchEmbedContents, at most 100 per request, in order', () => {
    const texts = Array.from({ length: 2 * GEMINI_EMBED_BATCH + 1 }, (_, i) => `t${i}`);
    const requests = adapter.buildRequests(call(texts), ctx);
    expect(requests.map((r) => r.inputs)).toEqual([100, 100, 1]);
    expect(requests.every((r) => r.upstream.url.endsWith(':batchEmbedContents'))).toBe(true);
    const sent = requests.flatMap(
      (r) => JSON.parse(r.upstream.body).requests as { model: string; content: { parts: { text: string }[] } }[],
    );
    expect(sent.map((r) => r.content.parts[0].text)).toEqual(texts);
    expect(new Set(sent.map((r) => r.model))).toEqual(new Set(['models/gemini-embedding-001']));
  });

  it('names a tuned model by its own resource', () => {
    expect(embedUrl('', 'tunedModels/my-model', true)).toBe(
      'https://generativelanguage.googleapis.com/v1beta/tunedModels/my-model:batchEmbedContents',
    );
    expect(buildEmbeddingBodies(call(['a', 'b']), 'tunedModels/my-model')[0].body).toMatchObject({
      requests: [{ model: 'tunedModels/my-model' }, { model: 'tunedModels/my-model' }],
    });
  });
});

describe('recorded answers', () => {
  it('reads embedContent and batchEmbedContents; no token counts', () => {
    expect(parseGeminiEmbeddings(loadJson('embed-content'), 1, call(['x']))).toEqual({
      vectors: [[0.013168523, -0.008711934, -0.046782676, 0.00069968984]],
      promptTokens: undefined,
    });
    expect(parseGeminiEmbeddings(loadJson('batch-embed-contents'), 2, call(['x', 'y'])).vectors).toHaveLength(2);
  });

  it('normalizes vectors shortened with dimensions to unit length', () => {
    const [vector] = parseGeminiEmbeddings({ embedding: { values: [3, 4] } }, 1, call(['x'], 2)).vectors as number[][];
    expect(vector).toEqual([0.6, 0.8]);
    const long = normalize([1, 2, 3, 4, 5]);
    expect(Math.hypot(...long)).toBeCloseTo(1, 12);
    expect(normalize([0, 0])).toEqual([0, 0]);
  });

  it('refuses a count mismatch or an empty vector, and maps errors', () => {
    expect(() => parseGeminiEmbeddings(loadJson('batch-embed-contents'), 3, call(['a', 'b', 'c']))).toThrow(
      UpstreamPayloadError,
    );
    expect(() => parseGeminiEmbeddings({ embedding: { values: [] } }, 1, call(['a']))).toThrow(/no values/);
    const info = adapter.mapError({ status: 400, body: loadJson('error-400-batch-limit') }, ctx);
    expect(info).toMatchObject({ status: 400, upstreamCode: 'INVALID_ARGUMENT' });
    expect(adapter.acceptsTokenInput(ctx.provider)).toBe(false);
  });
});
