// Admission over every candidate of `models`, not only the first: a key's model allow-list holds for fallbacks, and
// lists mixing free and paid models are admitted so that neither kind blocks the other nor slips past its limit —
// no credits: the free model serves; free allowance spent: the paid model serves; a free fallback behind a paid
// model counts against the free allowance.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, type Reply } from '../helpers/mock-upstream.js';
import { InMemoryCircuitBreaker } from '../../src/routing/circuit-breaker.js';

let gw: TestGateway;
const up: Record<'alpha' | 'beta' | 'gamma', MockUpstream> = {} as never;

const completion = (content: string): Reply => ({
  kind: 'json',
  body: {
    id: 'up-1',
    object: 'chat.completion',
    created: 1760000000,
    model: 'x',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  },
});
const fail500: Reply = { kind: 'json', status: 500, body: { error: { message: 'boom', type: 'server_error' } } };

beforeAll(async () => {
  for (const name of ['alpha', 'beta', 'gamma'] as const) up[name] = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/routing-catalog.json',
      ALPHA_API_KEY: 'sk-a',
      ALPHA_BASE_URL: `${up.alpha.url}/v1`,
      BETA_API_KEY: 'sk-b',
      BETA_BASE_URL: `${up.beta.url}/v1`,
      GAMMA_API_KEY: 'sk-g',
      GAMMA_BASE_URL: `${up.gamma.url}/v1`,
      MODELGATE_FREE_REQUESTS_PER_DAY: '2',
    },
  });
});
afterAll(async () => {
  await gw?.close();
  for (const u of Object.values(up)) await u?.close();
});
beforeEach(() => {
  for (const u of Object.values(up)) u.reset();
  up.alpha.always(completion('alpha'));
  up.beta.always(completion('beta'));
  up.gamma.always(completion('gamma (free)'));
  gw.parts.breaker = new InMemoryCircuitBreaker({ failureThreshold: 100, cooldownMs: 60_000 });
});

async function chat(key: string, model: string, models?: string[]) {
  const res = await gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model,
      ...(models ? { models } : {}),
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const calls = () => ({
  alpha: up.alpha.requests.length,
  beta: up.beta.requests.length,
  gamma: up.gamma.requests.length,
});

describe('allow-list', () => {
  it('a key limited to some models cannot reach another one through models[] (even a cheaper one)', async () => {
    const owner = await gw.createUser();
    await gw.grant(owner.userId, 10);
    const created = await gw.fetch('/api/v1/api-keys', {
      method: 'POST',
      key: await gw.createToken(owner.userId),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'beta only', allowed_models: ['beta/*'] }),
    });
    const limited = ((await created.json()) as any).key as string;
    // alpha/backup costs less than beta/solo: the reservation alone (most expensive candidate) would not see it.
    const refused = await chat(limited, 'alpha/backup', ['beta/solo']);
    expect(refused.status).toBe(403);
    expect(refused.body.error.metadata).toMatchObject({ reason: 'model_not_allowed', model: 'alpha/backup' });
    const fallback = await chat(limited, 'beta/solo', ['alpha/backup']);
    expect(fallback.status).toBe(403);
    expect(fallback.body.error.metadata.model).toBe('alpha/backup');
    expect(calls()).toEqual({ alpha: 0, beta: 0, gamma: 0 });
    expect((await chat(limited, 'beta/solo')).status).toBe(200);
  });
});

describe('models[] mixing free and paid models', () => {
  it('without credits the free model serves (the paid fallback is left out), instead of a 402', async () => {
    const user = await gw.createUser();
    const served = await chat(user.key, 'gamma/free-chat', ['beta/solo']);
    expect(served.status).toBe(200);
    expect(served.body.provider).toBe('gamma');

    // The paid fallback is not tried when the free model fails: it could not be paid for.
    up.gamma.always(fail500);
    const failed = await chat(user.key, 'gamma/free-chat', ['beta/solo']);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(calls().beta).toBe(0);
    // A paid model alone still needs credits.
    expect((await chat(user.key, 'beta/solo')).status).toBe(402);
  });

  it('with the free allowance spent the paid model serves, instead of a 429', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 10);
    for (let i = 0; i < 2; i++) expect((await chat(user.key, 'gamma/free-chat')).status).toBe(200);
    expect((await chat(user.key, 'gamma/free-chat')).status).toBe(429);
    const served = await chat(user.key, 'gamma/free-chat', ['beta/solo']);
    expect(served.status).toBe(200);
    expect(served.body.provider).toBe('beta');
    expect(calls()).toMatchObject({ gamma: 2, beta: 1 });
  });

  it('a free fallback behind a paid model counts against the free allowance', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 10);
    up.beta.always(fail500);
    for (let i = 0; i < 2; i++) {
      const served = await chat(user.key, 'beta/solo', ['gamma/free-chat']);
      expect(served.status).toBe(200);
      expect(served.body.provider).toBe('gamma');
    }
    // Two free-model requests today: the allowance (2) is spent.
    const refused = await chat(user.key, 'gamma/free-chat');
    expect(refused.status).toBe(429);
    expect(refused.body.error.metadata.reason).toBe('free_requests_per_day');
  });
});
