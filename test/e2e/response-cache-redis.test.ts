// The response cache on Redis (MODELGATE_REDIS_URL): two gateways on one database and one Redis share entries, so an
// answer stored through one is a hit on the other (JSON and stream); entries expire with their TTL and are bounded in
// size (MODELGATE_RESPONSE_CACHE_MAX_ENTRY_KB); the key never holds prompt text.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { readSse } from '../helpers/sse-client.js';
import { describeWithRedis, testRedisUrl, uniqueRedisPrefix } from '../helpers/redis-server.js';

const completion = (content: string) => ({
  id: 'chatcmpl-up',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describeWithRedis('response cache shared through Redis', () => {
  const prefix = uniqueRedisPrefix();
  let database: OpenTestDatabase;
  let upstream: MockUpstream;
  let redis: Redis;
  let a: TestGateway;
  let b: TestGateway;
  let user: Awaited<ReturnType<TestGateway['createUser']>>;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    database = await openTestDatabase('pglite', { migrated: true });
    const env = {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      MODELGATE_REDIS_URL: testRedisUrl(),
      MODELGATE_REDIS_PREFIX: prefix,
      MODELGATE_RESPONSE_CACHE_MAX_ENTRY_KB: '4',
    };
    [a, b] = [await startTestGateway({ database, env }), await startTestGateway({ database, env })];
    redis = new Redis(testRedisUrl());
    user = await a.createUser();
    await a.grant(user.userId, 10);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    if (redis) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
    await database?.close();
    await upstream?.close();
  });
  beforeEach(() => upstream.reset());

  const chat = (gw: TestGateway, body: Record<string, unknown>, cache = 'on') =>
    gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json', 'x-modelgate-cache': cache },
      body: JSON.stringify({ model: 'openai/gpt-test', stream: false, ...body }),
    });

  /**
   * Each instance connects to Redis in the background, and the cache is best effort: until it is connected, a write
   * or read is skipped (a miss). On a loaded machine that takes a while, so the instances are first shown to share an
   * entry; then that entry goes.
   */
  async function untilBothConnected(): Promise<void> {
    upstream.always({ kind: 'json', body: completion('warm-up') });
    const body = { messages: [{ role: 'user', content: 'warm-up' }] };
    await until(async () => {
      await (await chat(a, body, 'refresh')).text();
      const read = await chat(b, body);
      await read.text();
      return read.headers.get('x-modelgate-cache') === 'hit';
    });
    await redis.del(...(await redis.keys(`${prefix}rc:*`)));
    upstream.reset();
  }

  it('an answer stored through one instance is a hit on the other, JSON and stream', async () => {
    await untilBothConnected();
    upstream.reply({ kind: 'json', body: completion('shared') });
    const body = { messages: [{ role: 'user', content: 'SECRET-PROMPT shared across instances' }] };
    const miss = await chat(a, body, 'ttl=120');
    expect(miss.headers.get('x-modelgate-cache')).toBe('miss');
    const missed = await miss.json();
    const hit = await chat(b, body);
    expect(hit.headers.get('x-modelgate-cache')).toBe('hit');
    expect((await hit.json()).choices).toEqual(missed.choices);
    expect(upstream.requests).toHaveLength(1);

    const keys = await redis.keys(`${prefix}rc:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^${prefix}rc:[0-9a-f]{64}$`));
    // Expiring with the TTL asked for.
    const ttl = await redis.ttl(keys[0]);
    expect(ttl).toBeGreaterThan(100);
    expect(ttl).toBeLessThanOrEqual(120);

    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'across' }),
        chunk({}, 'stop'),
        { ...chunk({}), choices: [], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } },
      ]),
    });
    const streamed = { ...body, stream: true };
    const first = await readSse(await chat(b, streamed));
    // A stream is kept once its record says it succeeded, a moment after its last event reached the client.
    await until(async () => (await redis.keys(`${prefix}rc:*`)).length === 2);
    const second = await chat(a, streamed);
    expect(second.headers.get('x-modelgate-cache')).toBe('hit');
    const replay = await readSse(second);
    expect(replay.done).toBe(true);
    expect(replay.chunks.map((c) => c.choices[0]?.delta?.content)).toEqual(
      first.chunks.map((c) => c.choices[0]?.delta?.content),
    );
  });

  it('does not keep an answer above the entry bound', async () => {
    upstream.reply({ kind: 'json', body: completion('x'.repeat(5000)) }, { kind: 'json', body: completion('again') });
    const body = { messages: [{ role: 'user', content: 'too big to keep' }] };
    await (await chat(a, body)).json();
    expect((await chat(b, body)).headers.get('x-modelgate-cache')).toBe('miss');
    expect(upstream.requests).toHaveLength(2);
  });
});

/** Polls `check` every 20 ms, for at most 5 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    if (await check()) return;
  }
  throw new Error('not within 5 s');
}
