// The OpenAI-compatible embeddings adapter: the vendor request per dialect (OpenAI, Mistral, a generic server), and
// recorded answers (floats, base64, Mistral's) and errors read back.
import { describe, expect, it } from 'vitest';
import {
  buildEmbeddingBody,
  createOpenAICompatibleEmbeddings,
  parseEmbeddingResponse,
} from '../../../src/providers/openai-compatible/convert-embeddings.js';
import { UpstreamPayloadError } from '../../../src/providers/upstream-payload-error.js';
import type { EmbeddingCall } from '../../../src/core/embedding.js';
import { context, loadJson } from '../../helpers/stream-replay.js';

const adapter = createOpenAICompatibleEmbeddings({ now: () => 0 });
const texts = (...t: string[]): EmbeddingCall['inputs'] => ({ kind: 'text', texts: t });

describe('the vendor request', () => {
  it('OpenAI: every field it takes, base64 only when the client wants it', () => {
    const ctx = context(
      { id: 'openai', baseUrl: 'https://api.openai.com/v1/' },
      { upstreamModel: 'text-embedding-3-small' },
    );
    const [request, ...rest] = adapter.buildRequests(
      { inputs: texts('a', 'b'), dimensions: 256, encoding: 'base64', user: 'u-1' },
      ctx,
    );
    expect(rest).toEqual([]);
    expect(request.inputs).toBe(2);
    expect(request.upstream).toMatchObject({
      method: 'POST',
      url: 'https://api.openai.com/v1/embeddings',
      headers: { authorization: 'Bearer sk-test-key', 'content-type': 'application/json' },
    });
    expect(JSON.parse(request.upstream.body)).toEqual({
      model: 'text-embedding-3-small',
      input: ['a', 'b'],
      dimensions: 256,
      encoding_format: 'base64',
      user: 'u-1',
    });
    expect(buildEmbeddingBody({ inputs: { kind: 'tokens', tokens: [[1, 2]] }, encoding: 'float' }, ctx)).toEqual({
      model: 'text-embedding-3-small',
      input: [[1, 2]],
    });
    expect(adapter.acceptsTokenInput(ctx.provider)).toBe(true);
  });

  it('Mistral: output_dimension, no user, no token ids', () => {
    const ctx = context({ id: 'mistral', baseUrl: 'https://api.mistral.ai/v1' }, { upstreamModel: 'codestral-embed' });
    expect(buildEmbeddingBody({ inputs: texts('x'), dimensions: 512, encoding: 'float', user: 'u' }, ctx)).toEqual({
      model: 'codestral-embed',
      input: ['x'],
      output_dimension: 512,
    });
    expect(adapter.acceptsTokenInput(ctx.provider)).toBe(false);
  });

  it("a vendor configured as OpenAI-compatible speaks OpenAI's dialect; a keyless one sends no authorization", () => {
    const ctx = context(
      { id: 'my-vllm', baseUrl: 'http://10.0.0.5:8000/v1', apiKey: undefined },
      { upstreamModel: 'bge-m3' },
    );
    const [request] = adapter.buildRequests({ inputs: texts('x'), encoding: 'float' }, ctx);
    expect(request.upstream.url).toBe('http://10.0.0.5:8000/v1/embeddings');
    expect(request.upstream.headers.authorization).toBeUndefined();
  });
});

describe('recorded answers', () => {
  it('OpenAI floats, OpenAI base64 and Mistral, with the vendor token count', () => {
    expect(parseEmbeddingResponse(loadJson('openai', 'embeddings-float'), 2)).toEqual({
      vectors: [
        [0.0023064255, -0.009327292, -0.0028842222],
        [-0.0038719473, 0.01230111, 0.004586441],
      ],
      promptTokens: 8,
    });
    const base64 = parseEmbeddingResponse(loadJson('openai', 'embeddings-base64'), 1);
    expect(typeof base64.vectors[0]).toBe('string');
    expect(base64.promptTokens).toBe(5);
    expect(parseEmbeddingResponse(loadJson('mistral', 'embeddings'), 2).promptTokens).toBe(15);
  });

  it('refuses an answer that does not give one vector per input', () => {
    expect(() => parseEmbeddingResponse(loadJson('openai', 'embeddings-float'), 3)).toThrow(UpstreamPayloadError);
    expect(() =>
      parseEmbeddingResponse(
        {
          data: [
            { index: 0, embedding: [1] },
            { index: 0, embedding: [2] },
          ],
        },
        2,
      ),
    ).toThrow(/not a vector/);
    expect(() => parseEmbeddingResponse({ data: [{ index: 0, embedding: ['x'] }] }, 1)).toThrow(/not a vector/);
    expect(() => parseEmbeddingResponse('<html>', 1)).toThrow(/not JSON/);
    expect(() => parseEmbeddingResponse({ error: { message: 'quota', type: 'insufficient_quota' } }, 1)).toThrow(
      UpstreamPayloadError,
    );
  });

  it('maps a Mistral 422 (an extra field) to a 400 with its text', () => {
    const info = adapter.mapError(
      { status: 422, body: loadJson('mistral', 'error-422-extra-field') },
      context({ id: 'mistral' }),
    );
    expect(info.status).toBe(400);
    expect(info.message).toContain('Extra inputs are not permitted');
  });
});
