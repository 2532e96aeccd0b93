// The opt-in response cache on the chat door (X-Modelgate-Cache): a miss then a hit, as JSON (official OpenAI SDK)
// and as a stream (same events, same boundaries, [DONE]); keys that ignore key order but never cross accounts;
// refresh, ttl, no header; only whole, successful answers kept; a hit recorded as its own free generation that
// usage reports do not count.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { MemoryCacheStore } from '../../src/pipeline/response-cache/memory-store.js';
import { ResponseCache } from '../../src/pipeline/response-cache/response-cache.js';
import { createLogger } from '../../src/logger.js';

let gw: TestGateway;
let upstream: MockUpstream;
let user: Awaited<ReturnType<TestGateway['createUser']>>;
/** The cache's clock: moved forward to expire entries. */
let clock = Date.now();

const completion = (content: string) => ({
  id: 'chatcmpl-up',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-up',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk = {
  id: 'chatcmpl-up',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test-2026',
  choices: [],
  usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
};
const streamReply = (...words: string[]) => ({
  kind: 'sse' as const,
  chunks: openAiSse([
    chunk({ role: 'assistant', content: '' }),
    ...words.map((w) => chunk({ content: w })),
    chunk({}, 'stop'),
    usageChunk,
  ]),
});

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  const responseCache = new ResponseCache(
    new MemoryCacheStore(8 * 1024 * 1024, 1024 * 1024, () => clock),
    { maxEntryBytes: 1024 * 1024, priceFractionPpm: 0 },
    createLogger('silent'),
  );
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    },
    overrides: { responseCache },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 5);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const chat = (body: Record<string, unknown>, cache?: string, key = user.key) =>
  gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', ...(cache ? { 'x-modelgate-cache': cache } : {}) },
    body: JSON.stringify({ model: 'openai/gpt-test', stream: false, ...body }),
  });
const ask = (content: string) => ({ messages: [{ role: 'user', content }] });

async function record(id: string, key = user.key) {
  return (await (await gw.fetch(`/api/v1/generation?id=${id}`, { key })).json()).data;
}

describe('JSON answers', () => {
  it('misses, then hits with the same body under a new id, free, recorded as a hit (official OpenAI SDK)', async () => {
    const client = new OpenAI({
      baseURL: `${gw.url}/api/v1`,
      apiKey: user.key,
      maxRetries: 0,
      defaultHeaders: { 'X-Modelgate-Cache': 'on' },
    });
    upstream.reply({ kind: 'json', body: completion('Cached answer') });
    const params = {
      model: 'openai/gpt-test',
      messages: [{ role: 'user' as const, content: 'sdk question' }],
      temperature: 0.2,
    };
    const first = await client.chat.completions.create(params).withResponse();
    const second = await client.chat.completions.create(params).withResponse();
    expect(upstream.requests).toHaveLength(1);
    expect(first.response.headers.get('x-modelgate-cache')).toBe('miss');
    expect(second.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(second.data.id).toBe(second.response.headers.get('x-generation-id'));
    expect(second.data.id).not.toBe(first.data.id);
    const { id: _a, usage: usageA, ...restA } = first.data;
    const { id: _b, usage: usageB, ...restB } = second.data;
    expect(restB).toEqual(restA);
    // Same token counts (they describe the answer); the cost is what the hit cost.
    expect({ ...usageB, cost: undefined, cost_details: undefined }).toEqual({
      ...usageA,
      cost: undefined,
      cost_details: undefined,
    });
    expect((usageA as unknown as { cost: number }).cost).toBe(0.006);
    expect(usageB).toMatchObject({ cost: 0, cost_details: { access_mode: 'credits', charged: false } });
    expect(await record(second.data.id)).toMatchObject({
      cache_hit: true,
      cache_savings: 0.006,
      total_cost: 0,
      tokens_prompt: 0,
      tokens_completion: 0,
      status: 'success',
      model: 'openai/gpt-test',
      provider_name: 'openai',
    });
    expect(await record(first.data.id)).toMatchObject({ cache_hit: false, cache_savings: 0, total_cost: 0.006 });
  });

  it('keys on the request, not on its key order, and never serves another account', async () => {
    upstream.reply(
      { kind: 'json', body: completion('ordered') },
      { kind: 'json', body: completion('warmer') },
      { kind: 'json', body: completion('other account') },
    );
    expect((await chat({ ...ask('order'), temperature: 0.5, top_p: 0.9 }, 'on')).headers.get('x-modelgate-cache')).toBe(
      'miss',
    );
    const reordered = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json', 'x-modelgate-cache': 'on' },
      body: `{"top_p":0.9,"stream":false,"messages":[{"content":"order","role":"user"}],"temperature":0.5,"model":"openai/gpt-test"}`,
    });
    expect(reordered.headers.get('x-modelgate-cache')).toBe('hit');
    // A sampling field that differs is another request.
    expect((await chat({ ...ask('order'), temperature: 0.6, top_p: 0.9 }, 'on')).headers.get('x-modelgate-cache')).toBe(
      'miss',
    );
    const other = await gw.createUser();
    await gw.grant(other.userId, 1);
    const theirs = await chat({ ...ask('order'), temperature: 0.5, top_p: 0.9 }, 'on', other.key);
    expect(theirs.headers.get('x-modelgate-cache')).toBe('miss');
    expect((await theirs.json()).choices[0].message.content).toBe('other account');
  });

  it('refresh answers from the provider and overwrites; without the header nothing is read or written', async () => {
    upstream.reply(...['v1', 'v2', 'v3', 'v4', 'v5'].map((v) => ({ kind: 'json' as const, body: completion(v) })));
    await chat(ask('refreshing'), 'on');
    const refreshed = await chat(ask('refreshing'), 'refresh');
    expect(refreshed.headers.get('x-modelgate-cache')).toBe('miss');
    expect((await refreshed.json()).choices[0].message.content).toBe('v2');
    const hit = await chat(ask('refreshing'), 'on');
    expect((await hit.json()).choices[0].message.content).toBe('v2');
    const plain = await chat(ask('refreshing'));
    expect(plain.headers.get('x-modelgate-cache')).toBeNull();
    expect((await plain.json()).choices[0].message.content).toBe('v3');
    // A request without the header stores nothing: the first one with it misses.
    await chat(ask('never stored'));
    expect((await chat(ask('never stored'), 'on')).headers.get('x-modelgate-cache')).toBe('miss');
    expect(upstream.requests).toHaveLength(5);
  });

  it('keeps an entry for its ttl, one hour by default; bad headers are 400 in the envelope', async () => {
    upstream.reply(
      { kind: 'json', body: completion('short') },
      { kind: 'json', body: completion('again') },
      { kind: 'json', body: completion('default') },
    );
    await chat(ask('ttl'), 'ttl=60');
    clock += 59_000;
    expect((await chat(ask('ttl'), 'on')).headers.get('x-modelgate-cache')).toBe('hit');
    clock += 2_000;
    expect((await chat(ask('ttl'), 'on')).headers.get('x-modelgate-cache')).toBe('miss');
    await chat(ask('default ttl'), 'on');
    clock += 3_599_000;
    expect((await chat(ask('default ttl'), 'on')).headers.get('x-modelgate-cache')).toBe('hit');
    clock += 2_000;
    upstream.reply({ kind: 'json', body: completion('expired') });
    expect((await chat(ask('default ttl'), 'on')).headers.get('x-modelgate-cache')).toBe('miss');
    for (const bad of ['ttl=86401', 'ttl=0', 'ttl=abc', 'always', 'off, on']) {
      const res = await chat(ask('ttl'), bad);
      const body = await res.json();
      expect(res.status, bad).toBe(400);
      expect(body.error, JSON.stringify(body)).toMatchObject({ code: 400, metadata: { field: 'x-modelgate-cache' } });
    }
    upstream.reply({ kind: 'json', body: completion('a day') });
    expect((await chat(ask('ttl'), 'ttl=86400')).status).toBe(200);
  });

  it('keeps no error', async () => {
    upstream.reply(
      { kind: 'json', status: 500, body: { error: { message: 'upstream down', type: 'server_error' } } },
      { kind: 'json', body: completion('fine') },
    );
    expect((await chat(ask('failing'), 'on')).status).toBe(502);
    const next = await chat(ask('failing'), 'on');
    expect(next.headers.get('x-modelgate-cache')).toBe('miss');
    expect((await next.json()).choices[0].message.content).toBe('fine');
  });
});

describe('streams', () => {
  const stream = (content: string, cache = 'on') => chat({ ...ask(content), stream: true }, cache);

  it('replays the recorded events with the same contents and boundaries, ending with [DONE]', async () => {
    upstream.reply(streamReply('Hel', 'lo', ' world'));
    const missRes = await stream('stream me');
    const miss = await readSse(missRes);
    const hitRes = await stream('stream me');
    const hit = await readSse(hitRes);
    expect(upstream.requests).toHaveLength(1);
    expect(hitRes.headers.get('x-modelgate-cache')).toBe('hit');
    expect(hitRes.headers.get('content-type')).toContain('text/event-stream');
    expect(hit.done).toBe(true);
    expect(hit.events).toHaveLength(miss.events.length);
    const hitId = hitRes.headers.get('x-generation-id')!;
    const missId = missRes.headers.get('x-generation-id')!;
    // Every chunk carries the hit's own id; apart from it and the final usage's cost, the events are the same.
    expect(hit.chunks.every((c) => c.id === hitId)).toBe(true);
    const strip = (c: { id: string; usage?: Record<string, unknown> }) => ({
      ...c,
      id: undefined,
      usage: c.usage && { ...c.usage, cost: undefined, cost_details: undefined },
    });
    expect(hit.chunks.map(strip)).toEqual(miss.chunks.map(strip));
    expect(miss.chunks.every((c) => c.id === missId)).toBe(true);
    expect(hit.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('Hello world');
    expect(hit.chunks.at(-1).usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 3, cost: 0 });
    expect(await record(hitId)).toMatchObject({ cache_hit: true, streamed: true, finish_reason: 'stop' });
  });

  it('a JSON entry never answers a stream (the form is in the key)', async () => {
    upstream.reply({ kind: 'json', body: completion('json form') }, streamReply('stream form'));
    await chat(ask('form'), 'on');
    const res = await stream('form');
    expect(res.headers.get('x-modelgate-cache')).toBe('miss');
    expect((await readSse(res)).done).toBe(true);
  });

  it('keeps no truncated stream and no stream that ended in an error', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse(
        [chunk({ role: 'assistant', content: '' }), chunk({ content: 'cut' }), chunk({ content: ' off' })],
        false,
      ),
      cutAfter: 2,
    });
    const cut = await readSse(await stream('truncated'));
    expect(cut.done).toBe(true);
    expect(cut.chunks.at(-1).choices[0].finish_reason).toBe('error');
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse(
        [
          chunk({ role: 'assistant', content: '' }),
          chunk({ content: 'x' }),
          { error: { message: 'boom', type: 'server_error' } },
        ],
        false,
      ),
    });
    await readSse(await stream('errored'));
    upstream.reply(streamReply('whole'), streamReply('whole'));
    expect((await stream('truncated')).headers.get('x-modelgate-cache')).toBe('miss');
    expect((await stream('errored')).headers.get('x-modelgate-cache')).toBe('miss');
  });
});

describe('usage reports', () => {
  it('do not grow with hits: requests and tokens stay, cache hits and savings are counted apart', async () => {
    const fresh = await gw.createUser();
    await gw.grant(fresh.userId, 1);
    upstream.reply({ kind: 'json', body: completion('report') });
    await (await chat(ask('report'), 'on', fresh.key)).json();
    const activity = async () => (await (await gw.fetch('/api/v1/activity', { key: fresh.key })).json()).data;
    const before = await activity();
    expect(before).toEqual([
      expect.objectContaining({
        requests: 1,
        prompt_tokens: 1000,
        completion_tokens: 500,
        usage: 0.006,
        cache_hits: 0,
        cache_savings: 0,
      }),
    ]);
    const keyBefore = (await (await gw.fetch('/api/v1/key', { key: fresh.key })).json()).data;
    for (let i = 0; i < 2; i++)
      expect((await chat(ask('report'), 'on', fresh.key)).headers.get('x-modelgate-cache')).toBe('hit');
    expect(await activity()).toEqual([
      expect.objectContaining({
        requests: 1,
        prompt_tokens: 1000,
        completion_tokens: 500,
        usage: 0.006,
        cache_hits: 2,
        cache_savings: 0.012,
      }),
    ]);
    const keyAfter = (await (await gw.fetch('/api/v1/key', { key: fresh.key })).json()).data;
    expect(keyAfter.usage).toBe(keyBefore.usage);
    const credits = (await (await gw.fetch('/api/v1/credits', { key: fresh.key })).json()).data;
    expect(credits.total_usage).toBe(0.006);
  });
});
