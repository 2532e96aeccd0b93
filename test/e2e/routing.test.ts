// Provider routing end to end: one model on three mock providers (alpha, beta, gamma), fallback models, a provider
// nobody listens on. Which endpoint served shows in the body, every chunk, the headers and the generation record.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse, type Reply } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { InMemoryCircuitBreaker } from '../../src/routing/circuit-breaker.js';
import { EndpointStats } from '../../src/routing/endpoint-stats.js';
import { getCreditAccount } from '../../src/repositories/credits.js';

let gw: TestGateway;
const up: Record<'alpha' | 'beta' | 'gamma', MockUpstream> = {} as never;
let user: { userId: string; key: string };

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  for (const name of ['alpha', 'beta', 'gamma'] as const) up[name] = await new MockUpstream().start();
  const deltaPort = await closedPort();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/routing-catalog.json',
      ALPHA_API_KEY: 'sk-a',
      ALPHA_BASE_URL: `${up.alpha.url}/v1`,
      BETA_API_KEY: 'sk-b',
      BETA_BASE_URL: `${up.beta.url}/v1`,
      GAMMA_API_KEY: 'sk-g',
      GAMMA_BASE_URL: `${up.gamma.url}/v1`,
      DELTA_API_KEY: 'sk-d',
      DELTA_BASE_URL: `http://127.0.0.1:${deltaPort}/v1`,
      MODELGATE_ROUTE_MAX_ATTEMPTS: '3',
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 10);
});
afterAll(async () => {
  await gw?.close();
  for (const u of Object.values(up)) await u?.close();
});
beforeEach(() => {
  for (const u of Object.values(up)) u.reset();
  // Fresh health for every test: failures scripted by one test must not open breakers in the next.
  gw.parts.breaker = new InMemoryCircuitBreaker({ failureThreshold: 100, cooldownMs: 60_000 });
  gw.parts.endpointStats = new EndpointStats();
});

const hello = [{ role: 'user', content: 'Say hello' }];
const completion = (content: string, usage = { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 }) => ({
  id: 'up-1',
  object: 'chat.completion',
  created: 1760000000,
  model: 'x',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage,
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'up-2',
  object: 'chat.completion.chunk',
  created: 1760000000,
  model: 'x',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk = {
  id: 'up-2',
  object: 'chat.completion.chunk',
  created: 1760000000,
  model: 'x',
  choices: [],
  usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
};
const ok = (text: string): Reply => ({ kind: 'json', body: completion(text) });
const okStream = (text: string): Reply => ({
  kind: 'sse',
  chunks: openAiSse([
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: text }),
    chunk({}, 'stop'),
    usageChunk,
  ]),
});
const fail500: Reply = { kind: 'json', status: 500, body: { error: { message: 'boom', type: 'server_error' } } };
const fail429: Reply = { kind: 'json', status: 429, body: { error: { message: 'slow down', type: 'rate_limit' } } };
const fail400: Reply = {
  kind: 'json',
  status: 400,
  body: { error: { message: 'bad field', type: 'invalid_request_error' } },
};

function chat(body: Record<string, unknown>) {
  return gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key: user.key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: hello, ...body }),
  });
}

async function generation(id: string): Promise<any> {
  const res = await gw.fetch(`/api/v1/generation?id=${encodeURIComponent(id)}`, { key: user.key });
  return ((await res.json()) as any).data;
}

const calls = () => ({
  alpha: up.alpha.requests.length,
  beta: up.beta.requests.length,
  gamma: up.gamma.requests.length,
});

describe('default order and reporting', () => {
  it('tries the cheapest healthy endpoint first and names it in body, headers and record', async () => {
    up.beta.reply(ok('from beta'));
    const res = await chat({ model: 'alpha/chat', stream: false });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body).toMatchObject({
      model: 'alpha/chat',
      provider: 'beta',
      choices: [{ message: { content: 'from beta' } }],
    });
    expect(res.headers.get('x-modelgate-provider')).toBe('beta');
    expect(res.headers.get('x-modelgate-model')).toBe('alpha/chat');
    expect(up.beta.last.body.model).toBe('beta-chat');
    const record = await generation(body.id);
    expect(record).toMatchObject({ model: 'alpha/chat', provider_name: 'beta' });
    expect(record.attempts).toEqual([
      { provider: 'beta', model: 'alpha/chat', status: 200, error_code: null, latency_ms: expect.any(Number) },
    ]);
  });

  it('a single-endpoint model names its provider too', async () => {
    up.beta.reply(ok('solo'));
    const res = await chat({ model: 'beta/solo', stream: false });
    expect(await res.json()).toMatchObject({ model: 'beta/solo', provider: 'beta' });
    expect(res.headers.get('x-modelgate-provider')).toBe('beta');
  });
});

describe('fallback before the first byte', () => {
  it.each([
    ['500', fail500],
    ['429', fail429],
  ])(
    "JSON: upstream %s → the next endpoint serves; the charge is the serving endpoint's price",
    async (_name, failure) => {
      const before = (await getCreditAccount(gw.db, user.userId)).balanceNanos;
      up.beta.reply(failure);
      up.gamma.reply(ok('from gamma'));
      const res = await chat({ model: 'alpha/chat', stream: false });
      expect(res.status).toBe(200);
      const body: any = await res.json();
      expect(body).toMatchObject({ model: 'alpha/chat', provider: 'gamma' });
      expect(calls()).toEqual({ alpha: 0, beta: 1, gamma: 1 });
      // gamma: 1000 × $3/M + 500 × $6/M = $0.006 (beta would be $0.004, alpha $0.008)
      expect(body.usage.cost).toBeCloseTo(0.006, 12);
      const after = (await getCreditAccount(gw.db, user.userId)).balanceNanos;
      expect(before - after).toBe(6_000_000n);
      const record = await generation(body.id);
      expect(record.total_cost).toBeCloseTo(0.006, 12);
      expect(record.attempts.map((a: any) => [a.provider, a.status, a.error_code === null])).toEqual([
        ['beta', Number(_name), false],
        ['gamma', 200, true],
      ]);
      expect(await gw.reservedNanos(user.userId)).toBe(0n);
    },
  );

  it.each([
    ['500', fail500],
    ['429', fail429],
  ])('SSE: upstream %s → the next endpoint streams; every chunk names it', async (_name, failure) => {
    up.beta.reply(failure);
    up.gamma.reply(okStream('streamed by gamma'));
    const res = await chat({ model: 'alpha/chat', stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-provider')).toBe('gamma');
    const sse = await readSse(res);
    expect(sse.done).toBe(true);
    expect(sse.chunks.every((c) => c.provider === 'gamma' && c.model === 'alpha/chat')).toBe(true);
    expect(sse.chunks.map((c) => c.choices[0]?.delta?.content).join('')).toBe('streamed by gamma');
  });

  it.each([false, true])('connection refused (stream %s) → the next endpoint serves', async (stream) => {
    up.alpha.reply(stream ? okStream('alpha after delta') : ok('alpha after delta'));
    const res = await chat({ model: 'delta/first', stream });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-provider')).toBe('alpha');
    const text = stream
      ? (await readSse(res)).chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')
      : ((await res.json()) as any).choices[0].message.content;
    expect(text).toBe('alpha after delta');
    expect(up.alpha.last.body.model).toBe('alpha-for-delta');
  });

  it('SSE: an upstream that answers 200 and drops before any event fails over', async () => {
    up.beta.reply({ kind: 'sse-drop', chunks: [], close: 'destroy' });
    up.gamma.reply(okStream('second try'));
    const res = await chat({ model: 'alpha/chat', stream: true });
    expect(res.status).toBe(200);
    const sse = await readSse(res);
    expect(sse.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('second try');
    expect(sse.chunks.some((c) => c.choices[0]?.finish_reason === 'error')).toBe(false);
  });

  it('SSE: when every endpoint drops before any event, the answer is a 502 envelope, not a 200 stream', async () => {
    const drop: Reply = { kind: 'sse-drop', chunks: [], close: 'destroy' };
    up.beta.reply(drop);
    up.gamma.reply(drop);
    up.alpha.reply(drop);
    const res = await chat({ model: 'alpha/chat', stream: true });
    expect(res.status).toBe(502);
    expect(((await res.json()) as any).error.metadata).toMatchObject({
      reason: 'upstream_stream_failed',
      provider: 'alpha',
    });
  });
});

describe('no fallback', () => {
  it('after the first byte: the stream ends with an error chunk, no second answer spliced in', async () => {
    up.beta.reply({ kind: 'sse-drop', chunks: openAiSse([chunk({ content: 'partial' })], false), close: 'destroy' });
    up.gamma.reply(okStream('must not appear'));
    const res = await chat({ model: 'alpha/chat', stream: true });
    expect(res.status).toBe(200);
    const sse = await readSse(res);
    expect(sse.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('partial');
    expect(sse.chunks[sse.chunks.length - 1].choices[0]).toMatchObject({
      finish_reason: 'error',
      error: { code: 'server_error' },
    });
    expect(sse.chunks.every((c) => c.provider === 'beta')).toBe(true);
    expect(calls().gamma).toBe(0);
  });

  it('on a 400 another endpoint would repeat', async () => {
    up.beta.reply(fail400);
    const res = await chat({ model: 'alpha/chat', stream: false });
    expect(res.status).toBe(400);
    expect(calls()).toEqual({ alpha: 0, beta: 1, gamma: 0 });
  });

  it('beyond MODELGATE_ROUTE_MAX_ATTEMPTS', async () => {
    for (const u of Object.values(up)) u.always(fail500);
    up.alpha.reply(fail500);
    const res = await chat({ model: 'alpha/chat', models: ['alpha/backup'], stream: false });
    expect(res.status).toBe(502);
    const { alpha, beta, gamma } = calls();
    expect(alpha + beta + gamma).toBe(3);
    const body: any = await res.json();
    expect(body.error.code).toBe(502);
  });
});

describe('models[]', () => {
  it('falls back to the next model in order and reports it everywhere', async () => {
    up.beta.reply({ kind: 'json', status: 503, body: { error: { message: 'overloaded' } } });
    up.alpha.reply(okStream('backup speaking'));
    const res = await chat({ model: 'beta/solo', models: ['alpha/backup'], stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-model')).toBe('alpha/backup');
    expect(res.headers.get('x-modelgate-provider')).toBe('alpha');
    const sse = await readSse(res);
    expect(sse.chunks.every((c) => c.model === 'alpha/backup' && c.provider === 'alpha')).toBe(true);
    const record = await generation(sse.chunks[0].id);
    expect(record).toMatchObject({ model: 'alpha/backup', provider_name: 'alpha' });
    expect(record.attempts.map((a: any) => `${a.model}@${a.provider}:${a.status}`)).toEqual([
      'beta/solo@beta:503',
      'alpha/backup@alpha:200',
    ]);
  });

  it('an unknown fallback model is a 404 before anything is sent', async () => {
    const res = await chat({ model: 'beta/solo', models: ['alpha/nope'], stream: false });
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error.metadata).toMatchObject({ field: 'models', model: 'alpha/nope' });
    expect(calls()).toEqual({ alpha: 0, beta: 0, gamma: 0 });
  });
});

describe('provider preferences', () => {
  it('order puts the named providers first', async () => {
    up.alpha.reply(ok('alpha'));
    const res = await chat({ model: 'alpha/chat', provider: { order: ['alpha', 'gamma'] }, stream: false });
    expect(((await res.json()) as any).provider).toBe('alpha');
  });

  it('order with allow_fallbacks false tries only the named providers', async () => {
    up.alpha.reply(fail500);
    const res = await chat({
      model: 'alpha/chat',
      provider: { order: ['alpha'], allow_fallbacks: false },
      stream: false,
    });
    expect(res.status).toBe(502);
    expect(calls()).toEqual({ alpha: 1, beta: 0, gamma: 0 });
  });

  it('allow_fallbacks false without order tries only the first endpoint', async () => {
    up.beta.reply(fail500);
    const res = await chat({ model: 'alpha/chat', provider: { allow_fallbacks: false }, stream: false });
    expect(res.status).toBe(502);
    expect(calls()).toEqual({ alpha: 0, beta: 1, gamma: 0 });
  });

  it('only and ignore filter endpoints; only naming no serving provider is a 400 saying why', async () => {
    up.gamma.reply(ok('g'));
    expect(
      ((await (await chat({ model: 'alpha/chat', provider: { only: ['gamma'] }, stream: false })).json()) as any)
        .provider,
    ).toBe('gamma');
    up.gamma.reply(ok('g'));
    expect(
      ((await (await chat({ model: 'alpha/chat', provider: { ignore: ['beta'] }, stream: false })).json()) as any)
        .provider,
    ).toBe('gamma');
    const res = await chat({ model: 'alpha/chat', provider: { only: ['mistral'] }, stream: false });
    expect(res.status).toBe(400);
    const error = ((await res.json()) as any).error;
    expect(error.metadata.reason).toBe('provider_excluded');
    expect(error.message).toContain('alpha/chat via beta');
  });

  it('max_price keeps endpoints at or under the ceiling, and says so when none is left', async () => {
    up.beta.reply(ok('b'));
    const cheap = await chat({
      model: 'alpha/chat',
      provider: { max_price: { prompt: 2, completion: 4 }, order: ['alpha', 'gamma'] },
      stream: false,
    });
    expect(((await cheap.json()) as any).provider).toBe('beta');
    const none = await chat({ model: 'alpha/chat', provider: { max_price: { prompt: 1 } }, stream: false });
    expect(none.status).toBe(400);
    expect(((await none.json()) as any).error.metadata.reason).toBe('max_price_exceeded');
  });

  it('require_parameters skips endpoints that do not support a parameter sent; images skip non-image endpoints', async () => {
    up.beta.reply(fail500);
    up.alpha.reply(ok('a'));
    const res = await chat({
      model: 'alpha/chat',
      stream: false,
      response_format: { type: 'json_object' },
      provider: { require_parameters: true },
    });
    expect(((await res.json()) as any).provider).toBe('alpha');
    expect(calls()).toEqual({ alpha: 1, beta: 1, gamma: 0 });

    for (const u of Object.values(up)) u.reset();
    up.beta.reply(fail500);
    up.alpha.reply(ok('a'));
    const image = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        ],
      },
    ];
    const withImage = await chat({ model: 'alpha/chat', messages: image, stream: false });
    expect(((await withImage.json()) as any).provider).toBe('alpha');
    expect(calls().gamma).toBe(0);

    const noImageEndpoint = await chat({ model: 'beta/solo', messages: image, stream: false });
    expect(noImageEndpoint.status).toBe(400);
    expect(((await noImageEndpoint.json()) as any).error.metadata.reason).toBe('image_input_not_supported');
  });

  it('sort latency and throughput follow what this instance observed', async () => {
    gw.parts.endpointStats.observeLatency('alpha/chat@gamma', 50);
    gw.parts.endpointStats.observeLatency('alpha/chat@alpha', 10);
    up.alpha.reply(ok('fast'));
    expect(
      ((await (await chat({ model: 'alpha/chat', provider: { sort: 'latency' }, stream: false })).json()) as any)
        .provider,
    ).toBe('alpha');
    gw.parts.endpointStats.observeThroughput('alpha/chat@gamma', 300);
    gw.parts.endpointStats.observeThroughput('alpha/chat@beta', 100);
    up.gamma.reply(ok('quick'));
    expect(
      ((await (await chat({ model: 'alpha/chat', provider: { sort: 'throughput' }, stream: false })).json()) as any)
        .provider,
    ).toBe('gamma');
    up.beta.reply(ok('cheap'));
    expect(
      ((await (await chat({ model: 'alpha/chat', provider: { sort: 'price' }, stream: false })).json()) as any)
        .provider,
    ).toBe('beta');
  });

  it('a model with no configured provider answers 503 as before', async () => {
    const res = await chat({ model: 'mistral/only-unconfigured', stream: false });
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).error.metadata.reason).toBe('provider_not_configured');
  });
});

describe('circuit breaker', () => {
  it('opens after consecutive failures (skipped, shown open), half-opens after the cooldown, closes on success', async () => {
    let now = 1_000_000;
    gw.parts.breaker = new InMemoryCircuitBreaker({ failureThreshold: 2, cooldownMs: 10_000, clock: () => now });
    up.beta.always(fail500);
    up.gamma.always(ok('gamma'));
    for (let i = 0; i < 2; i++) expect((await chat({ model: 'alpha/chat', stream: false })).status).toBe(200);
    expect(up.beta.requests).toHaveLength(2);

    const listing: any = await (await gw.fetch('/api/v1/models/alpha/chat/endpoints', { key: user.key })).json();
    expect(listing.data.endpoints.map((e: any) => [e.provider, e.status, e.available])).toEqual([
      ['alpha', 'closed', true],
      ['beta', 'open', true],
      ['gamma', 'closed', true],
    ]);

    await chat({ model: 'alpha/chat', stream: false });
    expect(up.beta.requests).toHaveLength(2); // skipped while open

    now += 10_000; // cooldown over: half-open, one trial
    const half: any = await (await gw.fetch('/api/v1/models/alpha/chat/endpoints', { key: user.key })).json();
    expect(half.data.endpoints[1].status).toBe('half_open');
    up.beta.always(ok('beta is back'));
    // Healthy endpoints come before half-open ones; pinning beta makes this request its trial.
    const trial: any = await (await chat({ model: 'alpha/chat', provider: { only: ['beta'] }, stream: false })).json();
    expect(trial.provider).toBe('beta');
    const closed: any = await (await gw.fetch('/api/v1/models/alpha/chat/endpoints', { key: user.key })).json();
    expect(closed.data.endpoints[1].status).toBe('closed');
  });

  it('the models listing shows every endpoint with its prices', async () => {
    const list: any = await (await gw.fetch('/api/v1/models', { key: user.key })).json();
    const model = list.data.find((m: any) => m.id === 'alpha/chat');
    expect(model.endpoints.map((e: any) => [e.provider, e.provider_name, e.pricing.prompt])).toEqual([
      ['alpha', 'Alpha', '0.000004'],
      ['beta', 'Beta', '0.000002'],
      ['gamma', 'Gamma', '0.000003'],
    ]);
    expect(model.endpoints[2].supports_images).toBe(false);
    const missing = await gw.fetch('/api/v1/models/alpha/nope/endpoints', { key: user.key });
    expect(missing.status).toBe(404);
  });
});

describe('other front doors', () => {
  it('the Responses door routes through the same pipeline: provider preferences and models[] apply', async () => {
    up.gamma.reply(ok('gamma via responses'));
    const res = await gw.fetch('/api/v1/responses', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'alpha/chat', input: 'hi', provider: { only: ['gamma'] } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-provider')).toBe('gamma');
    expect(JSON.stringify(await res.json())).toContain('gamma via responses');

    up.beta.reply(fail500);
    up.alpha.reply(ok('backup via responses'));
    const fallback = await gw.fetch('/api/v1/responses', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'beta/solo', input: 'hi', models: ['alpha/backup'] }),
    });
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get('x-modelgate-model')).toBe('alpha/backup');
  });
});
