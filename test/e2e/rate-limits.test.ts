// Rate limits end to end: 429 with Retry-After and X-RateLimit-* before the stream, `rate_limit` chunk during it; the
// free allowance and requests per minute are the account's, shared by its keys, with a key's own tighter limits kept.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { setApiKeyLimits } from '../../src/repositories/api-keys.js';

let gw: TestGateway;
let upstream: MockUpstream;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      OPENROUTER_API_KEY: 'k',
      OPENROUTER_BASE_URL: `${upstream.url}/api/v1`,
      MODELGATE_FREE_REQUESTS_PER_DAY: '2',
      MODELGATE_RATE_LIMIT_RPM: '6',
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const ok = {
  id: 'x',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
};
const hello = [{ role: 'user', content: 'hi' }];
const chat = (key: string, model = 'openai/gpt-test', stream = false) =>
  gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: hello, stream }),
  });

describe('rate limits', () => {
  it('answers 429 with Retry-After and X-RateLimit-* once a key spends its requests per minute', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    await setApiKeyLimits(gw.db, user.keyId, { rate_limit_rpm: 2 });
    upstream.always({ kind: 'json', body: ok });
    const first = await chat(user.key);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() - 1000);
    expect((await chat(user.key)).status).toBe(200);
    const limited = await chat(user.key);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    const body: any = await limited.json();
    expect(body.error).toMatchObject({ code: 429, metadata: { reason: 'rate_limit', limit: 'requests_per_minute' } });
    expect(upstream.requests).toHaveLength(2);
    // Another key of the same user has its own budget.
    const other = await gw.createUser();
    expect((await chat(other.key, 'openrouter/test/free-model:free')).status).toBe(200);
  });

  it('limits requests to free models per key and day', async () => {
    const user = await gw.createUser();
    upstream.always({ kind: 'json', body: ok });
    expect((await chat(user.key, 'openrouter/test/free-model:free')).status).toBe(200);
    expect((await chat(user.key, 'openrouter/test/free-model:free')).status).toBe(200);
    const limited = await chat(user.key, 'openrouter/test/free-model:free');
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as any).error.metadata.reason).toBe('free_requests_per_day');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it("sends the key's X-RateLimit-* with a refusal that follows the rate step (402 credits, free allowance 429)", async () => {
    const user = await gw.createUser();
    await setApiKeyLimits(gw.db, user.keyId, { rate_limit_rpm: 5 });
    upstream.always({ kind: 'json', body: ok });
    const broke = await chat(user.key);
    expect(broke.status).toBe(402);
    expect([broke.headers.get('x-ratelimit-limit'), broke.headers.get('x-ratelimit-remaining')]).toEqual(['5', '4']);
    for (let i = 0; i < 2; i++) expect((await chat(user.key, 'openrouter/test/free-model:free')).status).toBe(200);
    const noAllowance = await chat(user.key, 'openrouter/test/free-model:free');
    expect(noAllowance.status).toBe(429);
    expect(((await noAllowance.json()) as any).error.metadata.reason).toBe('free_requests_per_day');
    expect([
      noAllowance.headers.get('x-ratelimit-remaining'),
      Number(noAllowance.headers.get('retry-after')) > 0,
    ]).toEqual(['1', true]);
    expect(upstream.requests).toHaveLength(2);
  });

  it('ends a stream with a rate_limit error chunk when the tokens-per-minute budget runs out during generation', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    await setApiKeyLimits(gw.db, user.keyId, { rate_limit_tpm: 200 });
    const chunk = (content: string) => ({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta: { content }, finish_reason: null }],
    });
    upstream.reply({ kind: 'sse', chunks: openAiSse(Array.from({ length: 20 }, () => chunk('y'.repeat(200)))) });
    const sse = await readSse(await chat(user.key, 'openai/gpt-test', true));
    const last = sse.chunks[sse.chunks.length - 1];
    expect(last.choices[0]).toMatchObject({ finish_reason: 'error', error: { code: 'rate_limit' } });
    expect(sse.done).toBe(true);
    const row = await gw.db.selectFrom('generations').selectAll().where('id', '=', last.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'error', error_code: 'rate_limit' });
  });

  it("counts POST /messages/count_tokens against the key's requests per minute: rpm=3, the 4th call is 429", async () => {
    const user = await gw.createUser();
    await setApiKeyLimits(gw.db, user.keyId, { rate_limit_rpm: 3 });
    const count = () =>
      gw.fetch('/api/v1/messages/count_tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': user.key },
        body: JSON.stringify({ model: 'openai/gpt-test', messages: hello }),
      });
    for (let i = 0; i < 3; i++) {
      const res = await count();
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
    }
    const limited = await count();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.stringContaining('3 requests per minute') },
    });
    // The same budget as every other call of the key.
    expect((await chat(user.key)).status).toBe(429);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('limits per account, not per key', () => {
  /** An account with a management key (made with its token) that made `count` inference keys. */
  async function accountWithKeys(count: number) {
    const user = await gw.createUser();
    const token = await gw.createToken(user.userId);
    const create = async (credential: string, body: Record<string, unknown>) => {
      const res = await gw.fetch('/api/v1/api-keys', {
        method: 'POST',
        key: credential,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { key: string; key_id: string };
    };
    const management = await create(token, { kind: 'management', name: 'provisioner' });
    const keys = [];
    for (let i = 0; i < count; i++) keys.push(await create(management.key, { name: `customer-${i}` }));
    return { user, keys };
  }

  it('three new keys made with a management key share the free allowance of their account', async () => {
    const { user, keys } = await accountWithKeys(3);
    upstream.always({ kind: 'json', body: ok });
    const statuses = [];
    for (const { key } of keys) statuses.push((await chat(key, 'openrouter/test/free-model:free')).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await chat(user.key, 'openrouter/test/free-model:free');
    expect(refused.status).toBe(429);
    const body: any = await refused.json();
    expect(body.error.metadata).toMatchObject({ reason: 'free_requests_per_day', scope: 'account', limit: 2, used: 2 });
    expect(body.error.message).toContain('across all its keys');
    expect(upstream.requests).toHaveLength(2);
  });

  it("keeps a key's own tighter free allowance", async () => {
    const { keys } = await accountWithKeys(2);
    await setApiKeyLimits(gw.db, keys[0].key_id, { free_requests_per_day: 1 });
    upstream.always({ kind: 'json', body: ok });
    expect((await chat(keys[0].key, 'openrouter/test/free-model:free')).status).toBe(200);
    const refused = await chat(keys[0].key, 'openrouter/test/free-model:free');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).error.metadata).toMatchObject({ scope: 'key', limit: 1 });
    // The account has one request left, for its other key.
    expect((await chat(keys[1].key, 'openrouter/test/free-model:free')).status).toBe(200);
    expect((await chat(keys[1].key, 'openrouter/test/free-model:free')).status).toBe(429);
  });

  it("spends the account's requests per minute across its keys and its token", async () => {
    const { user, keys } = await accountWithKeys(3);
    await gw.grant(user.userId, 1);
    upstream.always({ kind: 'json', body: ok });
    const token = await gw.createToken(user.userId);
    const callers = [...keys.map((k) => k.key), token];
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await chat(callers[i % 4])).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    const refused = await chat(keys[0].key);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('6');
    const body: any = await refused.json();
    expect(body.error.metadata).toMatchObject({ reason: 'rate_limit', limit: 'requests_per_minute', scope: 'account' });
    expect(body.error.message).toContain('6 requests per minute across all its keys');
    expect(upstream.requests).toHaveLength(6);
    // GET /key reports what applies: the account's 6, or a key's own where it is tighter.
    await setApiKeyLimits(gw.db, keys[1].key_id, { rate_limit_rpm: 2, free_requests_per_day: 50 });
    const info: any = await (await gw.fetch('/api/v1/key', { key: keys[1].key })).json();
    expect(info.data).toMatchObject({ rate_limit: { requests_per_minute: 2 }, free_requests_per_day: 2 });
  });
});
