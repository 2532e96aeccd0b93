// The response cache on the other doors (Messages, Responses, embeddings through the official OpenAI SDK), the
// operator's price for hits (charged through the normal settlement, 402 when it cannot be covered), and the cache
// metrics.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { metricValue } from '../helpers/serve-process.js';
import { listLedger } from '../../src/repositories/credits.js';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { loadProviderConfigs } from '../../src/providers/registry.js';

const TOKEN = 'scrape-token-abcdefghijklmnop';
let gw: TestGateway;
let upstream: MockUpstream;
let user: Awaited<ReturnType<TestGateway['createUser']>>;

const completion = (content: string) => ({
  id: 'chatcmpl-up',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  const env = {
    MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
    OPENAI_API_KEY: 'sk-up',
    OPENAI_BASE_URL: `${upstream.url}/v1`,
    MODELGATE_RESPONSE_CACHE_PRICE_FRACTION: '0.5',
    MODELGATE_METRICS_TOKEN: TOKEN,
  };
  // A chat-only OpenAI-compatible upstream: the Messages and Responses doors take the translated lane, whose answers
  // carry the generation's ids (native answers are cached too: test/e2e/native-lanes-cache.test.ts).
  const providers = loadProviderConfigs(env, loadCatalog(env));
  providers.getProvider('openai')!.protocols = ['chat'];
  gw = await startTestGateway({ env, overrides: { providers } });
  user = await gw.createUser();
  await gw.grant(user.userId, 5);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const post = (path: string, body: Record<string, unknown>, key = user.key, cache = 'on') =>
  gw.fetch(`/api/v1${path}`, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', 'x-modelgate-cache': cache },
    body: JSON.stringify(body),
  });

describe('other doors', () => {
  it("Gemini: JSON, SSE and JSON-array hits in Google's format, responseId replaced; SSE and the array are cached apart", async () => {
    upstream.reply({ kind: 'json', body: completion('Hallo') });
    const body = { contents: [{ role: 'user', parts: [{ text: 'hallo' }] }] };
    const path = '/gemini/v1beta/models/openai%2Fgpt-test';
    const first = await (await post(`${path}:generateContent`, body)).json();
    const hitRes = await post(`${path}:generateContent`, body);
    expect(hitRes.headers.get('x-modelgate-cache')).toBe('hit');
    const hit = await hitRes.json();
    expect(hit.responseId).toBe(hitRes.headers.get('x-generation-id'));
    expect({ ...hit, responseId: undefined }).toEqual({ ...first, responseId: undefined });

    const sse = openAiSse([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Streamed' }),
      chunk({}, 'stop'),
      { ...chunk({}), choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
    ]);
    upstream.reply({ kind: 'sse', chunks: sse }, { kind: 'sse', chunks: sse });
    const miss = await readSse(await post(`${path}:streamGenerateContent?alt=sse`, body));
    const replayRes = await post(`${path}:streamGenerateContent?alt=sse`, body);
    expect(replayRes.headers.get('x-modelgate-cache')).toBe('hit');
    const replay = await readSse(replayRes);
    expect(replay.chunks.map((c) => ({ ...c, responseId: undefined }))).toEqual(
      miss.chunks.map((c) => ({ ...c, responseId: undefined })),
    );
    expect(replay.chunks.every((c) => c.responseId === replayRes.headers.get('x-generation-id'))).toBe(true);

    // The same request without alt=sse is another answer (a JSON array): a miss, then a hit in the same framing.
    const arrayMiss = await post(`${path}:streamGenerateContent`, body);
    expect(arrayMiss.headers.get('x-modelgate-cache')).toBe('miss');
    const missed = JSON.parse(await arrayMiss.text());
    const arrayHit = await post(`${path}:streamGenerateContent`, body);
    expect(arrayHit.headers.get('x-modelgate-cache')).toBe('hit');
    expect(arrayHit.headers.get('content-type')).toMatch(/^application\/json/);
    const replayed = JSON.parse(await arrayHit.text());
    expect(replayed.map((c: object) => ({ ...c, responseId: undefined }))).toEqual(
      missed.map((c: object) => ({ ...c, responseId: undefined })),
    );
    expect(upstream.requests).toHaveLength(3);
  });

  it('Messages: a JSON hit and a streamed hit in Anthropic format, ids replaced', async () => {
    upstream.reply({ kind: 'json', body: completion('Bonjour') });
    const body = { model: 'openai/gpt-test', max_tokens: 600, messages: [{ role: 'user', content: 'salut' }] };
    const first = await (await post('/messages', body)).json();
    const hitRes = await post('/messages', body);
    expect(hitRes.headers.get('x-modelgate-cache')).toBe('hit');
    const hit = await hitRes.json();
    expect(hit.id).toBe(hitRes.headers.get('x-generation-id'));
    expect({ ...hit, id: undefined }).toEqual({ ...first, id: undefined });

    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Streamed' }),
        chunk({}, 'stop'),
        { ...chunk({}), choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
      ]),
    });
    const streamed = { ...body, stream: true };
    const miss = await readSse(await post('/messages', streamed));
    const hitStream = await post('/messages', streamed);
    const replay = await readSse(hitStream);
    expect(upstream.requests).toHaveLength(2);
    expect(replay.events.map((e) => JSON.parse(e).type)).toEqual(miss.events.map((e) => JSON.parse(e).type));
    expect(replay.events.at(-1)).toContain('message_stop');
    const start = JSON.parse(replay.events[0]);
    expect(start.message.id).toBe(hitStream.headers.get('x-generation-id'));
  });

  it('Responses: a JSON hit with the response and item ids of the new generation', async () => {
    upstream.reply({ kind: 'json', body: completion('Response text') });
    const body = { model: 'openai/gpt-test', input: 'tell me' };
    const first = await (await post('/responses', body)).json();
    const hitRes = await post('/responses', body);
    const hit = await hitRes.json();
    const id = hitRes.headers.get('x-generation-id')!;
    expect(hitRes.headers.get('x-modelgate-cache')).toBe('hit');
    expect(hit.id).toBe(id);
    expect(JSON.stringify(hit)).not.toContain(first.id);
    expect(hit.output[0].content[0].text).toBe('Response text');
    expect(hit.usage).toMatchObject({
      input_tokens: 1000,
      output_tokens: 500,
      cost: 0.003,
      cost_details: { charged: true },
    });
  });

  it('embeddings: a hit through the official OpenAI SDK (base64), same vectors', async () => {
    const vector = Buffer.from(new Float32Array([0.5, -0.25]).buffer).toString('base64');
    upstream.reply({
      kind: 'json',
      body: {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: vector }],
        usage: { prompt_tokens: 3, total_tokens: 3 },
      },
    });
    const client = new OpenAI({
      baseURL: `${gw.url}/api/v1`,
      apiKey: user.key,
      maxRetries: 0,
      defaultHeaders: { 'X-Modelgate-Cache': 'ttl=600' },
    });
    const first = await client.embeddings
      .create({ model: 'openai/embed-test', input: 'cache me', dimensions: 2 })
      .withResponse();
    const second = await client.embeddings
      .create({ model: 'openai/embed-test', input: 'cache me', dimensions: 2 })
      .withResponse();
    expect(upstream.requests).toHaveLength(1);
    expect(second.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(second.data.data).toEqual(first.data.data);
    expect(second.data.data[0].embedding).toEqual([0.5, -0.25]);
    const record = (
      await (
        await gw.fetch(`/api/v1/generation?id=${second.response.headers.get('x-generation-id')}`, { key: user.key })
      ).json()
    ).data;
    expect(record).toMatchObject({
      api_format: 'embeddings',
      cache_hit: true,
      total_cost: 0.0000015,
      cache_savings: 0.0000015,
    });
  });
});

describe('a price for hits (MODELGATE_RESPONSE_CACHE_PRICE_FRACTION=0.5)', () => {
  it('charges half the original through the ledger, and answers 402 when the balance cannot cover it', async () => {
    const payer = await gw.createUser();
    await gw.grant(payer.userId, 0.008);
    upstream.reply({ kind: 'json', body: completion('priced') });
    const body = {
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'priced' }],
      max_tokens: 500,
      stream: false,
    };
    const miss = await post('/chat/completions', body, payer.key);
    expect(miss.status).toBe(200);
    await miss.json();
    // 0.006 charged: 0.002 left, less than the hit's 0.003.
    const refused = await post('/chat/completions', body, payer.key);
    expect(refused.status).toBe(402);
    expect(refused.headers.get('x-modelgate-cache')).toBe('hit');
    expect((await refused.json()).error.message).toMatch(
      /^Insufficient credits: this request may cost up to 0.003 USD and 0.002 USD is available/,
    );
    await gw.grant(payer.userId, 0.01);
    const hitRes = await post('/chat/completions', body, payer.key);
    expect(hitRes.status).toBe(200);
    expect((await hitRes.json()).usage).toMatchObject({ cost: 0.003, cost_details: { charged: true } });
    const id = hitRes.headers.get('x-generation-id')!;
    const ledger = await listLedger(gw.db, payer.userId, 10);
    expect(ledger.find((row) => row.generation_id === id)?.amount_nanos).toBe(-3_000_000n);
    const record = (await (await gw.fetch(`/api/v1/generation?id=${id}`, { key: payer.key })).json()).data;
    expect(record).toMatchObject({ cache_hit: true, total_cost: 0.003, cache_savings: 0.003, tokens_prompt: 0 });
    const credits = (await (await gw.fetch('/api/v1/credits', { key: payer.key })).json()).data;
    expect(credits.total_usage).toBe(0.009);
    expect(credits.total_credits).toBe(0.018);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('metrics', () => {
  it('count hits and misses by api_format, and the bytes stored', async () => {
    upstream.reply({ kind: 'json', body: completion('counted') });
    const body = { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'counted' }], stream: false };
    const scrape = async () => (await gw.fetch('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const before = await scrape();
    await (await post('/chat/completions', body)).json();
    await (await post('/chat/completions', body)).json();
    await (await post('/chat/completions', body)).json();
    const after = await scrape();
    const delta = (name: string) =>
      metricValue(after, name, { api_format: 'chat_completions' }) -
      metricValue(before, name, { api_format: 'chat_completions' });
    expect(delta('modelgate_response_cache_misses_total')).toBe(1);
    expect(delta('modelgate_response_cache_hits_total')).toBe(2);
    expect(metricValue(after, 'modelgate_response_cache_bytes')).toBeGreaterThan(
      metricValue(before, 'modelgate_response_cache_bytes'),
    );
  });
});
