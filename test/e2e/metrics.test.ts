// GET /metrics: off without MODELGATE_METRICS_TOKEN, behind it as a Bearer token otherwise; the figures come from the
// generation records (requests, tokens, cost, latency, TTFT), upstream attempts and limit refusals, with labels
// bounded to catalog values.
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { metricValue } from '../helpers/serve-process.js';
import { setApiKeyLimits } from '../../src/repositories/api-keys.js';

const TOKEN = 'scrape-token-abcdefghijklmnop';
const chunk = (content: string) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});
const usage = {
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
};

let upstream: MockUpstream;
let gw: TestGateway;
let plain: TestGateway;

function envFor(extra: Record<string, string> = {}) {
  return {
    MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
    OPENAI_API_KEY: 'k',
    OPENAI_BASE_URL: `${upstream.url}/v1`,
    ...extra,
  };
}

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({ env: envFor({ MODELGATE_METRICS_TOKEN: TOKEN }) });
  plain = await startTestGateway({ env: envFor() });
});
afterAll(async () => {
  await gw?.close();
  await plain?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const scrape = async (target = gw, token = TOKEN) => {
  const res = await target.fetch('/metrics', { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};
const chat = (key: string, body: Record<string, unknown> = {}) =>
  gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      ...body,
    }),
  });

describe('GET /metrics', () => {
  it('does not exist without MODELGATE_METRICS_TOKEN', async () => {
    expect((await scrape(plain)).status).toBe(404);
  });

  it('answers 401 without the token or with another one', async () => {
    expect((await gw.fetch('/metrics')).status).toBe(401);
    const wrong = await scrape(gw, 'not-the-token-at-all-000');
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.text).error.code).toBe(401);
  });

  it('counts requests, tokens, cost, latency, upstream attempts and refusals, with catalog labels only', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 10);
    upstream.reply({ kind: 'sse', chunks: openAiSse([chunk('hello'), usage]) });
    const sse = await readSse(await chat(user.key));
    expect(sse.done).toBe(true);
    upstream.reply({ kind: 'json', status: 500, body: { error: { message: 'boom', type: 'server_error' } } });
    expect((await chat(user.key, { stream: false })).status).toBe(502);
    // A model that is not in the catalog never becomes a label value.
    expect((await chat(user.key, { model: 'evil/not-in-catalog-x1' })).status).toBeGreaterThanOrEqual(400);
    await setApiKeyLimits(gw.db, user.keyId, { rate_limit_rpm: 1 });
    const limited = await gw.createUser();
    await gw.grant(limited.userId, 10);
    await setApiKeyLimits(gw.db, limited.keyId, { rate_limit_rpm: 1 });
    upstream.reply({ kind: 'sse', chunks: openAiSse([chunk('x'), usage]) });
    await (await chat(limited.key)).text();
    expect((await chat(limited.key)).status).toBe(429);
    await gw.settled();

    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    const model = { model: 'openai/gpt-test' };
    expect(
      metricValue(text, 'modelgate_requests_total', {
        api_format: 'chat_completions',
        provider: 'openai',
        ...model,
        status: 'success',
      }),
    ).toBe(2);
    expect(metricValue(text, 'modelgate_requests_total', { provider: 'openai', ...model, status: 'error' })).toBe(1);
    expect(metricValue(text, 'modelgate_tokens_total', { type: 'prompt', ...model })).toBe(20);
    expect(metricValue(text, 'modelgate_tokens_total', { type: 'completion', ...model })).toBe(20);
    // 10 prompt tokens at 2 USD/M + 10 completion tokens at 8 USD/M, twice.
    expect(metricValue(text, 'modelgate_cost_usd_total', model)).toBeCloseTo(0.0002, 9);
    expect(metricValue(text, 'modelgate_request_duration_seconds_count', { provider: 'openai', ...model })).toBe(3);
    expect(metricValue(text, 'modelgate_time_to_first_token_seconds_count', { provider: 'openai', ...model })).toBe(2);
    expect(metricValue(text, 'modelgate_upstream_attempts_total', { provider: 'openai', outcome: 'ok' })).toBe(2);
    expect(metricValue(text, 'modelgate_upstream_attempts_total', { provider: 'openai', outcome: 'http_5xx' })).toBe(1);
    expect(metricValue(text, 'modelgate_rate_limited_total', { reason: 'requests_per_minute' })).toBe(1);
    expect(text).toMatch(/^modelgate_settlement_queue_depth 0$/m);
    expect(text).toMatch(/^modelgate_credit_leases \d+$/m);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toContain('nodejs_heap_size_used_bytes');
    expect(text).not.toContain('not-in-catalog');
    expect(text).not.toContain(user.keyId);
    expect(text).not.toContain(user.userId);
    // Without Redis there is no Redis gauge to mislead anyone.
    expect(text).not.toMatch(/^modelgate_redis_up /m);
  });

  it('shows limit decisions taken without Redis while it is unreachable', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as net.AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const offline = await startTestGateway({
      env: envFor({ MODELGATE_METRICS_TOKEN: TOKEN, MODELGATE_REDIS_URL: `redis://127.0.0.1:${port}` }),
    });
    try {
      const user = await offline.createUser();
      await offline.grant(user.userId, 1);
      upstream.reply({ kind: 'sse', chunks: openAiSse([chunk('x'), usage]) });
      const res = await offline.fetch('/api/v1/chat/completions', {
        method: 'POST',
        key: user.key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: true }),
      });
      // Fail-open: served.
      expect(res.status).toBe(200);
      await res.text();
      const { text } = await scrape(offline);
      expect(text).toMatch(/^modelgate_redis_up 0$/m);
      expect(metricValue(text, 'modelgate_redis_fallbacks_total', { operation: 'rate' })).toBeGreaterThanOrEqual(1);
      expect(offline.logs.some((line) => line.includes('Redis unreachable'))).toBe(true);
    } finally {
      await offline.close();
    }
  });
});
