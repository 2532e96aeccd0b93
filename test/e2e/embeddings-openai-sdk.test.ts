// POST /embeddings through the official `openai` SDK (which asks for base64 and decodes it) and raw HTTP: OpenAI's
// own API natively, Mistral's by its dialect, Gemini's by translation to embedContent / batchEmbedContents; each
// request recorded (GET /generation) and debited once.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { listLedger } from '../../src/repositories/credits.js';

let gw: TestGateway;
let upstream: MockUpstream;
let client: OpenAI;
let user: Awaited<ReturnType<TestGateway['createUser']>>;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/embeddings-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      GOOGLE_API_KEY: 'AIza-test-key-000000',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
      MISTRAL_API_KEY: 'mistral-key',
      MISTRAL_BASE_URL: `${upstream.url}/mistral/v1`,
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 5);
  client = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: user.key, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

/** What OpenAI's float32 base64 of `values` is. */
function base64Of(values: number[]): string {
  return Buffer.from(new Float32Array(values).buffer).toString('base64');
}
const f32 = (values: number[]) => [...new Float32Array(values)];

const openAiReply = (vectors: (number[] | string)[], tokens: number) => ({
  kind: 'json' as const,
  body: {
    object: 'list',
    data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
    model: 'text-embedding-3-small',
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  },
});

async function record(id: string) {
  const res = await gw.fetch(`/api/v1/generation?id=${id}`, { key: user.key });
  expect(res.status).toBe(200);
  return (await res.json()).data;
}

describe('OpenAI models through the official SDK', () => {
  it('asks upstream for base64 as the SDK does, passes the bytes through, and the SDK decodes them', async () => {
    const vectors = [
      [0.25, -0.5, 0.125],
      [1.5, 0.1, -0.3],
    ];
    upstream.reply(openAiReply(vectors.map(base64Of), 9));
    const { data: result, response } = await client.embeddings
      .create({ model: 'openai/text-embedding-3-small', input: ['first text', 'second'] })
      .withResponse();
    expect(upstream.last.path).toBe('/v1/embeddings');
    expect(upstream.last.headers.authorization).toBe('Bearer sk-up');
    expect(upstream.last.body).toEqual({
      model: 'text-embedding-3-small',
      input: ['first text', 'second'],
      encoding_format: 'base64',
    });
    expect(result.data.map((d) => d.embedding)).toEqual(vectors.map(f32));
    expect(result.data.map((d) => d.index)).toEqual([0, 1]);
    expect(result.model).toBe('openai/text-embedding-3-small');
    expect(result.usage).toMatchObject({ prompt_tokens: 9, total_tokens: 9, cost: 0.000018 });
    const id = response.headers.get('x-generation-id')!;
    expect((result as unknown as { id: string }).id).toBe(id);
    expect(await record(id)).toMatchObject({
      api_format: 'embeddings',
      model: 'openai/text-embedding-3-small',
      provider_name: 'openai',
      status: 'success',
      streamed: false,
      tokens_prompt: 9,
      tokens_completion: 0,
      total_cost: 0.000018,
      usage_estimated: false,
      cache_hit: false,
    });
    expect((await listLedger(gw.db, user.userId, 10)).find((row) => row.generation_id === id)?.amount_nanos).toBe(
      -18_000n,
    );
  });

  it('forwards dimensions', async () => {
    upstream.reply(openAiReply([base64Of([0.6, 0.8])], 3));
    const result = await client.embeddings.create({
      model: 'openai/text-embedding-3-small',
      input: 'short',
      dimensions: 2,
    });
    expect(upstream.last.body).toEqual({
      model: 'text-embedding-3-small',
      input: ['short'],
      dimensions: 2,
      encoding_format: 'base64',
    });
    expect(result.data[0].embedding).toEqual(f32([0.6, 0.8]));
  });

  it('answers raw float requests with numbers, token ids and user included', async () => {
    upstream.reply(
      openAiReply(
        [
          [0.1, 0.2],
          [0.3, 0.4],
        ],
        5,
      ),
    );
    const res = await gw.fetch('/api/v1/embeddings', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'openai/text-embedding-3-small',
        input: [[101, 102, 103], [7]],
        user: 'end-user-1',
      }),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(upstream.last.body).toEqual({
      model: 'text-embedding-3-small',
      input: [[101, 102, 103], [7]],
      user: 'end-user-1',
    });
    expect(body).toMatchObject({
      object: 'list',
      model: 'openai/text-embedding-3-small',
      provider: 'openai',
      data: [
        { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
        { object: 'embedding', index: 1, embedding: [0.3, 0.4] },
      ],
    });
  });

  it('puts vectors back in input order when the upstream lists them out of order, and decodes base64 for float clients', async () => {
    upstream.reply({
      kind: 'json',
      body: {
        object: 'list',
        data: [
          { index: 1, embedding: base64Of([2]) },
          { index: 0, embedding: base64Of([1]) },
        ],
        usage: { prompt_tokens: 2 },
      },
    });
    const res = await gw.fetch('/api/v1/embeddings', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/text-embedding-3-small', input: ['a', 'b'], encoding_format: 'float' }),
    });
    expect((await res.json()).data.map((d: { embedding: number[] }) => d.embedding)).toEqual([[1], [2]]);
  });
});

describe('Mistral', () => {
  it('speaks its dialect: no user, no dimensions for its one size, base64 asked for and passed through', async () => {
    upstream.reply({
      kind: 'json',
      body: {
        id: 'emb-1',
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: base64Of([0.5, 0.5]) }],
        model: 'mistral-embed',
        usage: { prompt_tokens: 4, total_tokens: 4, completion_tokens: 0 },
      },
    });
    const result = await client.embeddings.create({
      model: 'mistral/mistral-embed',
      input: 'bonjour',
      dimensions: 1024,
      user: 'u-1',
    });
    expect(upstream.last.path).toBe('/mistral/v1/embeddings');
    expect(upstream.last.body).toEqual({ model: 'mistral-embed', input: ['bonjour'], encoding_format: 'base64' });
    expect(result.data[0].embedding).toEqual([0.5, 0.5]);
    expect(result.usage.prompt_tokens).toBe(4);
  });
});

describe('Gemini, translated', () => {
  it('sends one input to embedContent with outputDimensionality and normalizes the shortened vector', async () => {
    upstream.reply({ kind: 'json', body: { embedding: { values: [3, 4] } } });
    const { data: result, response } = await client.embeddings
      .create({ model: 'google/gemini-embedding-001', input: 'hello gemini', dimensions: 128 })
      .withResponse();
    expect(upstream.last.path).toBe('/v1beta/models/gemini-embedding-001:embedContent');
    expect(upstream.last.headers['x-goog-api-key']).toBe('AIza-test-key-000000');
    expect(upstream.last.headers.authorization).toBeUndefined();
    expect(upstream.last.body).toEqual({ content: { parts: [{ text: 'hello gemini' }] }, outputDimensionality: 128 });
    expect(result.data[0].embedding).toEqual(f32([0.6, 0.8]));
    // No token counts from Gemini: the gateway's estimate (12 characters → 3 tokens), marked as such.
    expect(result.usage).toMatchObject({ prompt_tokens: 3, total_tokens: 3, cost: 0.000003 });
    expect(await record(response.headers.get('x-generation-id')!)).toMatchObject({
      tokens_prompt: 3,
      total_cost: 0.000003,
      usage_estimated: true,
      provider_name: 'google',
    });
  });

  it('batches several inputs into batchEmbedContents, 100 at most per request, in input order', async () => {
    const inputs = Array.from({ length: 150 }, (_, i) => `text ${i}`);
    const answer = (from: number, count: number) => ({
      kind: 'json' as const,
      body: { embeddings: Array.from({ length: count }, (_, i) => ({ values: [from + i, 1] })) },
    });
    upstream.reply(answer(0, 100), answer(100, 50));
    const result = await client.embeddings.create({ model: 'google/gemini-embedding-001', input: inputs });
    expect(upstream.requests.map((r) => r.path)).toEqual([
      '/v1beta/models/gemini-embedding-001:batchEmbedContents',
      '/v1beta/models/gemini-embedding-001:batchEmbedContents',
    ]);
    const sent = upstream.requests.map(
      (r) => r.body.requests as { model: string; content: { parts: { text: string }[] } }[],
    );
    expect(sent.map((requests) => requests.length).sort()).toEqual([100, 50].sort());
    const first = sent.find((requests) => requests.length === 100)!;
    expect(first[0]).toEqual({ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'text 0' }] } });
    // Full-size vectors are Gemini's own (already normalized): passed as they are.
    expect(result.data.map((d) => d.embedding[0])).toEqual(inputs.map((_, i) => i));
    expect(result.data.map((d) => d.index)).toEqual(inputs.map((_, i) => i));
  });

  it('maps a Gemini error to the gateway envelope and charges nothing', async () => {
    upstream.reply({
      kind: 'json',
      status: 400,
      body: { error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' } },
    });
    const res = await gw.fetch('/api/v1/embeddings', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'google/gemini-embedding-001', input: 'x' }),
    });
    expect(res.status).toBe(400);
    const id = res.headers.get('x-generation-id')!;
    expect((await res.json()).error).toMatchObject({ code: 400, message: 'Request contains an invalid argument.' });
    expect(await record(id)).toMatchObject({
      status: 'error',
      total_cost: 0,
      attempts: [{ provider: 'google', status: 400 }],
    });
  });
});
