// Session affinity end to end: one model on two mock providers (east, west) and `provider.sort: "latency"`, with
// the latency statistics made to favour, before every turn, the endpoint that did NOT serve the previous one (what a
// loaded endpoint's own measurements do: serving makes it look slower). A conversation (prompt_cache_key, Claude
// Code's metadata.user_id, X-Task-ID, Codex's session-id) stays where its previous turn was served; another
// conversation, another account, or a gateway with affinity off follows the statistics; a failing affine endpoint
// fails over and the conversation then stays on the new one; with Redis two gateways share the conversations.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { describeWithRedis, testRedisUrl, uniqueRedisPrefix } from '../helpers/redis-server.js';
import { InMemoryCircuitBreaker } from '../../src/routing/circuit-breaker.js';
import { EndpointStats } from '../../src/routing/endpoint-stats.js';
import type { AffinityStore } from '../../src/routing/session-affinity.js';

type Provider = 'east' | 'west';
const completion = {
  id: 'up',
  object: 'chat.completion',
  created: 1,
  model: 'x',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
};
const fail500 = { kind: 'json' as const, status: 500, body: { error: { message: 'boom', type: 'server_error' } } };

let database: OpenTestDatabase;
const up = {} as Record<Provider, MockUpstream>;

function envFor(extra: Record<string, string> = {}): Record<string, string> {
  return {
    MODELGATE_CATALOG: 'test/fixtures/catalog/affinity-catalog.json',
    EAST_API_KEY: 'sk-east',
    EAST_BASE_URL: `${up.east.url}/v1`,
    WEST_API_KEY: 'sk-west',
    WEST_BASE_URL: `${up.west.url}/v1`,
    ...extra,
  };
}

/** Makes `slow` look slow and the other endpoint fast to provider.sort = latency on this gateway. */
function favourOtherThan(gw: TestGateway, slow: Provider): void {
  const other: Provider = slow === 'east' ? 'west' : 'east';
  for (let i = 0; i < 5; i++) {
    gw.parts.endpointStats.observeLatency(`east/chat@${slow}`, 10_000);
    gw.parts.endpointStats.observeLatency(`east/chat@${other}`, 1);
  }
}

type Door = 'chat' | 'responses' | 'messages';

async function turn(
  gw: TestGateway,
  key: string,
  door: Door,
  session: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<Provider> {
  const common = { model: 'east/chat', provider: { sort: 'latency' }, stream: false, ...session.body };
  const [path, body] =
    door === 'chat'
      ? ['/api/v1/chat/completions', { messages: [{ role: 'user', content: 'hi' }], ...common }]
      : door === 'responses'
        ? ['/api/v1/responses', { input: 'hi', ...common }]
        : ['/api/v1/messages', { max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...common }];
  const res = await gw.fetch(path, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', ...session.headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return res.headers.get('x-modelgate-provider') as Provider;
}

/** Turns of one conversation; before each turn after the first, the statistics favour the other endpoint. */
async function conversation(
  gw: TestGateway,
  key: string,
  door: Door,
  session: Parameters<typeof turn>[3],
  turns = 4,
): Promise<Provider[]> {
  const served: Provider[] = [];
  for (let i = 0; i < turns; i++) {
    if (i > 0) favourOtherThan(gw, served[i - 1]);
    served.push(await turn(gw, key, door, session));
  }
  return served;
}

beforeAll(async () => {
  up.east = await new MockUpstream().start();
  up.west = await new MockUpstream().start();
  database = await openTestDatabase('pglite', { migrated: true });
});
afterAll(async () => {
  await database?.close();
  for (const mock of Object.values(up)) await mock?.close();
});
beforeEach(() => {
  for (const mock of Object.values(up)) {
    mock.reset();
    mock.always({ kind: 'json', body: completion });
  }
});

describe('session affinity, one gateway', () => {
  let gw: TestGateway;
  let user: { userId: string; key: string };
  beforeAll(async () => {
    gw = await startTestGateway({ database, env: envFor() });
    user = await gw.createUser();
    await gw.grant(user.userId, 10);
  });
  afterAll(async () => {
    await gw?.close();
  });
  beforeEach(() => {
    gw.parts.breaker = new InMemoryCircuitBreaker({ failureThreshold: 100, cooldownMs: 60_000 });
    gw.parts.endpointStats = new EndpointStats();
  });

  it('turns with one prompt_cache_key stay on the endpoint of the first turn while latency would switch', async () => {
    const served = await conversation(gw, user.key, 'chat', { body: { prompt_cache_key: 'conv-chat-1' } });
    expect(served).toEqual(['east', 'east', 'east', 'east']);
    // The statistics now favour west: a request of another conversation, or of none, follows them.
    expect(await turn(gw, user.key, 'chat', { body: { prompt_cache_key: 'conv-chat-2' } })).toBe('west');
    expect(await turn(gw, user.key, 'chat')).toBe('west');
    // Affinity is per account: the same key from another account is another conversation.
    const other = await gw.createUser();
    await gw.grant(other.userId, 10);
    expect(await turn(gw, other.key, 'chat', { body: { prompt_cache_key: 'conv-chat-1' } })).toBe('west');
    expect(await turn(gw, user.key, 'chat', { body: { prompt_cache_key: 'conv-chat-1' } })).toBe('east');
  });

  it.each([
    ['chat', 'X-Task-ID', { headers: { 'x-task-id': 'task-77' } }],
    ['responses', 'prompt_cache_key', { body: { prompt_cache_key: '01a220c3-3f43-7501-ad66-9432e475b23f' } }],
    ['responses', "Codex's session-id header", { headers: { 'session-id': '01a220c3-3f43-7501-ad66-9432e475b23f' } }],
    [
      'messages',
      "Claude Code's metadata.user_id",
      {
        body: {
          metadata: { user_id: JSON.stringify({ device_id: 'dev', account_uuid: '', session_id: 'cc-session-1' }) },
        },
      },
    ],
  ] as const)('%s door, session named by %s: every turn on one endpoint', async (door, _by, session) => {
    expect(await conversation(gw, user.key, door, session)).toEqual(['east', 'east', 'east', 'east']);
  });

  it("Claude Code's user_id: another session_id of the same device is another conversation", async () => {
    const userId = (session: string) => JSON.stringify({ device_id: 'dev-9', account_uuid: '', session_id: session });
    expect(await turn(gw, user.key, 'messages', { body: { metadata: { user_id: userId('s-1') } } })).toBe('east');
    favourOtherThan(gw, 'east');
    expect(await turn(gw, user.key, 'messages', { body: { metadata: { user_id: userId('s-2') } } })).toBe('west');
    expect(await turn(gw, user.key, 'messages', { body: { metadata: { user_id: userId('s-1') } } })).toBe('east');
  });

  it('a failing affine endpoint fails over as before, and the conversation then stays on the new endpoint', async () => {
    const session = { body: { prompt_cache_key: 'conv-failover' } };
    expect(await turn(gw, user.key, 'chat', session)).toBe('east');
    up.east.reply(fail500);
    expect(await turn(gw, user.key, 'chat', session)).toBe('west');
    expect(up.east.requests).toHaveLength(2); // turn 1; turn 2 tried it first (affine), failed, then west served
    // east answers again and the statistics favour it: the conversation keeps to west, where its cache now is.
    favourOtherThan(gw, 'west');
    expect(await turn(gw, user.key, 'chat', session)).toBe('west');
    expect(await turn(gw, user.key, 'chat', session)).toBe('west');
  });

  it('an affine endpoint whose circuit breaker opened is skipped; the conversation moves on', async () => {
    const session = { body: { prompt_cache_key: 'conv-breaker' } };
    expect(await turn(gw, user.key, 'chat', session)).toBe('east');
    gw.parts.breaker = new InMemoryCircuitBreaker({ failureThreshold: 1, cooldownMs: 60_000 });
    gw.parts.breaker.recordFailure('east/chat@east');
    expect(await turn(gw, user.key, 'chat', session)).toBe('west');
    expect(up.east.requests).toHaveLength(1);
  });

  it('no store lookup when there is no choice: a single-endpoint model, no session key, or provider.order', async () => {
    const real = gw.parts.affinity!;
    const gets: string[] = [];
    gw.parts.affinity = {
      get: (key) => {
        gets.push(key);
        return real.get(key);
      },
      set: (key, endpoint) => real.set(key, endpoint),
    } satisfies AffinityStore;
    try {
      const solo = await gw.fetch('/api/v1/chat/completions', {
        method: 'POST',
        key: user.key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'east/solo',
          messages: [{ role: 'user', content: 'hi' }],
          prompt_cache_key: 'conv-solo',
          stream: false,
        }),
      });
      expect(solo.status).toBe(200);
      await turn(gw, user.key, 'chat');
      await turn(gw, user.key, 'chat', {
        body: { prompt_cache_key: 'conv-ordered', provider: { order: ['west', 'east'] } },
      });
      expect(gets).toEqual([]);
      await turn(gw, user.key, 'chat', { body: { prompt_cache_key: 'conv-looked-up' } });
      expect(gets).toHaveLength(1);
      expect(gets[0]).not.toContain('conv-looked-up');
    } finally {
      gw.parts.affinity = real;
    }
  });
});

describe('session affinity off (MODELGATE_AFFINITY_TTL_SECONDS=0)', () => {
  it('the same conversation follows the latency statistics turn by turn', async () => {
    const gw = await startTestGateway({ database, env: envFor({ MODELGATE_AFFINITY_TTL_SECONDS: '0' }) });
    try {
      const user = await gw.createUser();
      await gw.grant(user.userId, 10);
      expect(gw.parts.affinity).toBeUndefined();
      expect(await conversation(gw, user.key, 'chat', { body: { prompt_cache_key: 'conv-off' } })).toEqual([
        'east',
        'west',
        'east',
        'west',
      ]);
    } finally {
      await gw.close();
    }
  });
});

describeWithRedis('session affinity shared through Redis', () => {
  it('two gateways: a conversation begun on one stays on its endpoint when the next turn reaches the other', async () => {
    const env = envFor({ MODELGATE_REDIS_URL: testRedisUrl(), MODELGATE_REDIS_PREFIX: uniqueRedisPrefix() });
    const a = await startTestGateway({ database, env });
    const b = await startTestGateway({ database, env });
    try {
      const user = await a.createUser();
      await a.grant(user.userId, 10);
      const session = { body: { prompt_cache_key: 'conv-shared' } };
      // Each gateway measures on its own; b's statistics favour west from the start.
      favourOtherThan(b, 'east');
      expect(await turn(a, user.key, 'chat', session)).toBe('east');
      expect(await turn(b, user.key, 'chat', session)).toBe('east');
      favourOtherThan(a, 'east');
      expect(await turn(a, user.key, 'chat', session)).toBe('east');
      // Another conversation on b follows b's statistics.
      expect(await turn(b, user.key, 'chat', { body: { prompt_cache_key: 'conv-other' } })).toBe('west');
      // And a conversation that moved on b (failover) has moved for a too.
      up.east.reply(fail500);
      expect(await turn(b, user.key, 'chat', session)).toBe('west');
      favourOtherThan(a, 'west');
      expect(await turn(a, user.key, 'chat', session)).toBe('west');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
