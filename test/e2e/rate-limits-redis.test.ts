// Rate limits end to end with MODELGATE_REDIS_URL: two gateways on one database and one Redis answer as one (a key's
// own RPM, and its account's RPM and free allowance, shared by all the account's keys, are spent across both), the
// headers are those of the in-process limiter, and the tokens-per-minute budget still ends a stream during generation.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { readSse } from '../helpers/sse-client.js';
import { describeWithRedis, testRedisUrl, uniqueRedisPrefix } from '../helpers/redis-server.js';
import { setApiKeyLimits } from '../../src/repositories/api-keys.js';

const ok = {
  id: 'x',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
};
const hello = [{ role: 'user', content: 'hi' }];

describeWithRedis('rate limits shared through Redis', () => {
  let database: OpenTestDatabase;
  let upstream: MockUpstream;
  let gateways: TestGateway[] = [];

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    database = await openTestDatabase('pglite', { migrated: true });
    const env = {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      OPENROUTER_API_KEY: 'k',
      OPENROUTER_BASE_URL: `${upstream.url}/api/v1`,
      MODELGATE_FREE_REQUESTS_PER_DAY: '3',
      MODELGATE_RATE_LIMIT_RPM: '4',
      MODELGATE_REDIS_URL: testRedisUrl(),
      MODELGATE_REDIS_PREFIX: uniqueRedisPrefix(),
      // A busy test machine can take longer than the 250 ms default to answer, and a late answer means each gateway
      // decides alone (fail-open): these tests are about sharing, not the fallback (test/limits/redis-limits.test.ts).
      MODELGATE_REDIS_TIMEOUT_MS: '5000',
    };
    gateways = [await startTestGateway({ database, env }), await startTestGateway({ database, env })];
  });
  afterAll(async () => {
    for (const gw of gateways) await gw.close();
    await database?.close();
    await upstream?.close();
  });
  beforeEach(() => upstream.reset());

  const chat = (gw: TestGateway, key: string, model = 'openai/gpt-test', stream = false) =>
    gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: hello, stream }),
    });

  it('spends one requests-per-minute budget across both gateways', async () => {
    const [a, b] = gateways;
    const user = await a.createUser();
    // Ample: one gateway's credit lease must leave the other room (false 402s across instances are a known lease issue).
    await a.grant(user.userId, 100);
    await setApiKeyLimits(database.db, user.keyId, { rate_limit_rpm: 3 });
    upstream.always({ kind: 'json', body: ok });
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await chat(i % 2 ? b : a, user.key);
      await res.text();
      statuses.push(res.status);
      if (i === 0)
        expect([res.headers.get('x-ratelimit-limit'), res.headers.get('x-ratelimit-remaining')]).toEqual(['3', '2']);
      if (res.status === 429) expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect(upstream.requests).toHaveLength(3);
    expect(a.logs.some((line) => line.includes('"limits":"redis"'))).toBe(true);
  });

  it('spends one free-model allowance across both gateways', async () => {
    const [a, b] = gateways;
    const user = await a.createUser();
    upstream.always({ kind: 'json', body: ok });
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await chat(i % 2 ? b : a, user.key, 'openrouter/test/free-model:free')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("spends one account's free allowance and requests per minute across its keys and both gateways", async () => {
    const [a, b] = gateways;
    const user = await a.createUser();
    await a.grant(user.userId, 100);
    const token = await a.createToken(user.userId);
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await (i % 2 ? b : a).fetch('/api/v1/api-keys', {
        method: 'POST',
        key: token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `k${i}` }),
      });
      expect(res.status).toBe(201);
      keys.push(((await res.json()) as any).key);
    }
    upstream.always({ kind: 'json', body: ok });
    const free = [];
    for (let i = 0; i < 4; i++)
      free.push((await chat(i % 2 ? b : a, keys[i % 3], 'openrouter/test/free-model:free')).status);
    expect(free).toEqual([200, 200, 200, 429]);
    // Those 4 requests came within the minute too: the account's 4 requests per minute are spent, whichever key.
    const res = await chat(b, keys[2]);
    expect(res.status).toBe(429);
    expect(((await res.json()) as any).error.metadata).toMatchObject({ reason: 'rate_limit', scope: 'account' });
    expect(upstream.requests).toHaveLength(3);
  });

  it('ends a stream with a rate_limit chunk when the tokens-per-minute budget runs out during generation', async () => {
    const [a] = gateways;
    const user = await a.createUser();
    await a.grant(user.userId, 1);
    await setApiKeyLimits(database.db, user.keyId, { rate_limit_tpm: 200 });
    const chunk = (content: string) => ({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta: { content }, finish_reason: null }],
    });
    upstream.reply({ kind: 'sse', chunks: openAiSse(Array.from({ length: 20 }, () => chunk('y'.repeat(200)))) });
    const sse = await readSse(await chat(a, user.key, 'openai/gpt-test', true));
    const last = sse.chunks[sse.chunks.length - 1];
    expect(last.choices[0]).toMatchObject({ finish_reason: 'error', error: { code: 'rate_limit' } });
  });
});
