// Per-key limits end to end: 429 with Retry-After and X-RateLimit-* before the stream, `rate_limit` chunk during it.
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
      OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${upstream.url}/v1`,
      OPENROUTER_API_KEY: 'k', OPENROUTER_BASE_URL: `${upstream.url}/api/v1`,
      MODELGATE_FREE_REQUESTS_PER_DAY: '2',
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const ok = { id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } };
const hello = [{ role: 'user', content: 'hi' }];
const chat = (key: string, model = 'openai/gpt-test', stream = false) =>
  gw.fetch('/api/v1/chat/completions', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: hello, stream }) });

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

  it('sends the key\'s X-RateLimit-* with a refusal that follows the rate step (402 credits, free allowance 429)', async () => {
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
    expect([noAllowance.headers.get('x-ratelimit-remaining'), Number(noAllowance.headers.get('retry-after')) > 0]).toEqual(['1', true]);
    expect(upstream.requests).toHaveLength(2);
  });

  it('ends a stream with a rate_limit error chunk when the tokens-per-minute budget runs out during generation', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    await setApiKeyLimits(gw.db, user.keyId, { rate_limit_tpm: 200 });
    const chunk = (content: string) => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] });
    upstream.reply({ kind: 'sse', chunks: openAiSse(Array.from({ length: 20 }, () => chunk('y'.repeat(200)))) });
    const sse = await readSse(await chat(user.key, 'openai/gpt-test', true));
    const last = sse.chunks[sse.chunks.length - 1];
    expect(last.choices[0]).toMatchObject({ finish_reason: 'error', error: { code: 'rate_limit' } });
    expect(sse.done).toBe(true);
    const row = await gw.db.selectFrom('generations').selectAll().where('id', '=', last.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'error', error_code: 'rate_limit' });
  });

  it('counts POST /messages/count_tokens against the key\'s requests per minute: rpm=3, the 4th call is 429', async () => {
    const user = await gw.createUser();
    await setApiKeyLimits(gw.db, user.keyId, { rate_limit_rpm: 3 });
    const count = () => gw.fetch('/api/v1/messages/count_tokens', {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': user.key },
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
    expect(await limited.json()).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: expect.stringContaining('3 requests per minute') } });
    // The same budget as every other call of the key.
    expect((await chat(user.key)).status).toBe(429);
    expect(upstream.requests).toHaveLength(0);
  });
});
