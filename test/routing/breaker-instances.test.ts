// Two gateways on one database and one Redis (MODELGATE_REDIS_URL) share their circuit breakers: an endpoint that
// failed behind gateway A is shown open by gateway B's endpoints listing and skipped by B's requests.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { describeWithRedis, testRedisUrl, uniqueRedisPrefix } from '../helpers/redis-server.js';
import { RedisCircuitBreaker } from '../../src/routing/redis-circuit-breaker.js';

const completion = (content: string) => ({
  id: 'up-1',
  object: 'chat.completion',
  created: 1760000000,
  model: 'x',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
});

describeWithRedis('circuit breaker shared by two gateways', () => {
  let database: OpenTestDatabase;
  const up: Record<'alpha' | 'beta' | 'gamma', MockUpstream> = {} as never;
  let gateways: TestGateway[] = [];

  beforeAll(async () => {
    for (const name of ['alpha', 'beta', 'gamma'] as const) up[name] = await new MockUpstream().start();
    database = await openTestDatabase('pglite', { migrated: true });
    const env = {
      MODELGATE_CATALOG: 'test/fixtures/catalog/routing-catalog.json',
      ALPHA_API_KEY: 'sk-a',
      ALPHA_BASE_URL: `${up.alpha.url}/v1`,
      BETA_API_KEY: 'sk-b',
      BETA_BASE_URL: `${up.beta.url}/v1`,
      GAMMA_API_KEY: 'sk-g',
      GAMMA_BASE_URL: `${up.gamma.url}/v1`,
      MODELGATE_BREAKER_FAILURES: '2',
      // Long enough that no test run outlives it: the endpoint stays open for the whole test.
      MODELGATE_BREAKER_COOLDOWN_MS: '3600000',
      MODELGATE_REDIS_URL: testRedisUrl(),
      MODELGATE_REDIS_PREFIX: uniqueRedisPrefix(),
    };
    gateways = [await startTestGateway({ database, env }), await startTestGateway({ database, env })];
  });
  afterAll(async () => {
    for (const gw of gateways) await gw.close();
    await database?.close();
    for (const u of Object.values(up)) await u?.close();
  });

  it('failures behind A open the endpoint on B: listed open, skipped', async () => {
    const [a, b] = gateways;
    expect(a.parts.breaker).toBeInstanceOf(RedisCircuitBreaker);
    const user = await a.createUser();
    await a.grant(user.userId, 10);
    up.beta.always({ kind: 'json', status: 500, body: { error: { message: 'boom', type: 'server_error' } } });
    up.gamma.always({ kind: 'json', body: completion('gamma') });
    up.alpha.always({ kind: 'json', body: completion('alpha') });
    const chat = (gw: TestGateway) =>
      gw.fetch('/api/v1/chat/completions', {
        method: 'POST',
        key: user.key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'alpha/chat', messages: [{ role: 'user', content: 'hi' }], stream: false }),
      });
    const status = async (gw: TestGateway) => {
      const listing: any = await (await gw.fetch('/api/v1/models/alpha/chat/endpoints', { key: user.key })).json();
      return Object.fromEntries(listing.data.endpoints.map((e: any) => [e.provider, e.status]));
    };
    expect(await status(b)).toEqual({ alpha: 'closed', beta: 'closed', gamma: 'closed' });

    // Beta is the cheapest endpoint: tried first, fails, gamma serves.
    for (let i = 0; i < 2; i++) {
      const res: any = await (await chat(a)).json();
      expect(res.provider).toBe('gamma');
    }
    expect(up.beta.requests).toHaveLength(2);

    // A writes outcomes without making its answer wait; B's listing shows them once they landed.
    let seen = await status(b);
    for (let i = 0; i < 50 && seen.beta !== 'open'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = await status(b);
    }
    expect(seen).toEqual({ alpha: 'closed', beta: 'open', gamma: 'closed' });

    const served: any = await (await chat(b)).json();
    expect(served.provider).toBe('gamma');
    expect(up.beta.requests).toHaveLength(2); // B never asked beta
  });
});
