// Shared limits on a real Redis: several limiter instances (as several gateway processes would hold) count against
// one budget per key, atomically; an unreachable Redis falls back to per-instance limits and recovers.
import { spawn, type ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { RedisLimitStore, type SharedLimitsObserver } from '../../src/limits/redis-store.js';
import { RedisRateLimiter } from '../../src/limits/redis-rate-limiter.js';
import { RedisFreeRequests } from '../../src/limits/redis-free-requests.js';
import { describeWithRedis, testRedisUrl, uniqueRedisPrefix } from '../helpers/redis-server.js';
import { freePort } from '../helpers/serve-process.js';

const stores: RedisLimitStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});

function capture() {
  const lines: { level: number; msg: string }[] = [];
  const logger = createLogger('info', new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  }));
  return { logger, lines };
}

function countingObserver() {
  const seen = { fallbacks: 0, up: [] as boolean[] };
  const observer: SharedLimitsObserver = { redisFallback: () => void seen.fallbacks++, redisUp: (up) => void seen.up.push(up) };
  return { seen, observer };
}

async function openStore(options: { url?: string; prefix: string; observer?: SharedLimitsObserver; logger?: ReturnType<typeof capture>['logger'] }) {
  const store = new RedisLimitStore({
    url: options.url ?? testRedisUrl(), prefix: options.prefix, timeoutMs: 500,
    logger: options.logger ?? createLogger('silent'), observer: options.observer,
  });
  stores.push(store);
  await store.connect();
  return store;
}


async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

describeWithRedis('shared limits on Redis', () => {
  it('gives a key exactly its requests per minute across instances, under concurrency', async () => {
    const prefix = uniqueRedisPrefix();
    const limiters = [new RedisRateLimiter(await openStore({ prefix })), new RedisRateLimiter(await openStore({ prefix }))];
    const limits = { rpm: 10, tpm: 0 };
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => limiters[i % 2].admit('key-a', limits, 5, Date.now())));
    expect(decisions.filter((d) => d.ok)).toHaveLength(10);
    const refused = decisions.find((d) => !d.ok)!;
    expect(refused).toMatchObject({ ok: false, exceeded: 'requests', state: { limit: 10, remaining: 0 } });
    expect(refused.ok === false && refused.retryAfterSeconds).toBeGreaterThan(0);
    // Another key has its own budget.
    expect((await limiters[1].admit('key-b', limits, 5, Date.now())).ok).toBe(true);
  });

  it('starts a limit switched on later from a full bucket', async () => {
    const limiter = new RedisRateLimiter(await openStore({ prefix: uniqueRedisPrefix() }));
    // Only a token limit at first: the request bucket is not kept.
    expect((await limiter.admit('k', { rpm: 0, tpm: 1000 }, 10, Date.now())).ok).toBe(true);
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push((await limiter.admit('k', { rpm: 2, tpm: 1000 }, 10, Date.now())).ok);
    expect(decisions).toEqual([true, true, false]);
  });

  it('shares the token budget: tokens used on one instance refuse admission on the other', async () => {
    const prefix = uniqueRedisPrefix();
    const [one, two] = [new RedisRateLimiter(await openStore({ prefix })), new RedisRateLimiter(await openStore({ prefix }))];
    const limits = { rpm: 0, tpm: 1000 };
    expect((await one.admit('k', limits, 100, Date.now())).ok).toBe(true);
    // Generation on instance one counts 950 tokens: past the budget, which it knows at once from its last answer.
    expect(one.consumeTokens('k', limits, 950, Date.now())).toBe(false);
    // The consumption leaves after this event-loop turn, on instance one's connection; a command sent after it on
    // the same connection is answered after it, so once that answer is in, Redis has counted the 950.
    await new Promise((resolve) => setImmediate(resolve));
    await one.admit('k', limits, 0, Date.now());
    expect(await two.admit('k', limits, 100, Date.now())).toMatchObject({ ok: false, exceeded: 'tokens' });
  });

  it('counts the free-model allowance once across instances, seeded from the records of the day', async () => {
    const prefix = uniqueRedisPrefix();
    let reads = 0;
    const countSince = async () => (reads++, 1);
    const [one, two] = [new RedisFreeRequests(await openStore({ prefix }), countSince), new RedisFreeRequests(await openStore({ prefix }), countSince)];
    const now = Date.now();
    const decisions = await Promise.all([one, two, one, two, one].map((free) => free.take('key-f', 3, now)));
    expect(decisions.filter((d) => d.ok)).toHaveLength(2);
    expect(decisions.filter((d) => !d.ok)[0]).toMatchObject({ ok: false, limit: 3, used: 3 });
    expect(reads).toBeGreaterThanOrEqual(1);
    // The next UTC day starts over (a new counter, seeded again).
    expect((await one.take('key-f', 3, now + 86_400_000)).ok).toBe(true);
  });

  it('falls back to per-instance limits at once when Redis is unreachable, logged once and counted', async () => {
    const { logger, lines } = capture();
    const { seen, observer } = countingObserver();
    const store = await openStore({ url: `redis://127.0.0.1:${await freePort()}`, prefix: uniqueRedisPrefix(), observer, logger });
    const limiter = new RedisRateLimiter(store);
    const free = new RedisFreeRequests(store, async () => 0);
    const limits = { rpm: 2, tpm: 0 };
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await limiter.admit('k', limits, 1, Date.now()));
    expect(decisions.map((d) => d.ok)).toEqual([true, true, false]);
    expect((await free.take('k', 1, Date.now())).ok).toBe(true);
    expect((await free.take('k', 1, Date.now())).ok).toBe(false);
    expect(limiter.consumeTokens('k', { rpm: 0, tpm: 10 }, 20, Date.now())).toBe(false);
    expect(seen.fallbacks).toBe(5);
    expect(seen.up).toContain(false);
    expect(lines.filter((l) => l.msg.startsWith('Redis unreachable'))).toHaveLength(1);
  });

  describe('a Redis that stalls', () => {
    let server: ChildProcess | undefined;
    afterAll(() => {
      server?.kill('SIGCONT');
      server?.kill('SIGKILL');
    });

    it('decides locally once commands time out, and shares again when Redis answers', { timeout: 30_000 }, async () => {
      const port = await freePort();
      server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      const { seen, observer } = countingObserver();
      let store: RedisLimitStore;
      for (;;) {
        store = await openStore({ url: `redis://127.0.0.1:${port}`, prefix: uniqueRedisPrefix(), observer });
        if (!store.isDown) break;
        await store.close();
      }
      const limiter = new RedisRateLimiter(store);
      const limits = { rpm: 3, tpm: 0 };
      expect((await limiter.admit('k', limits, 1, Date.now())).ok).toBe(true);
      // Stopped, not gone: the connection stays open and commands get no answer (the command timeout ends them).
      server.kill('SIGSTOP');
      const during = [];
      for (let i = 0; i < 4; i++) during.push((await limiter.admit('k', limits, 1, Date.now())).ok);
      expect(store.isDown).toBe(true);
      // This instance's own bucket, full at the start of the stall.
      expect(during).toEqual([true, true, true, false]);
      expect(seen.fallbacks).toBe(4);
      server.kill('SIGCONT');
      // One request per second probes Redis; the first probe that is answered shares the limits again.
      while (store.isDown) {
        await limiter.admit('k', limits, 1, Date.now());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Redis kept its count (1 taken before the stall, plus the probe that was answered).
      const after = await limiter.admit('k', limits, 1, Date.now());
      expect(after.state.limit).toBe(3);
      expect(after.state.remaining).toBeLessThanOrEqual(1);
    });
  });

  describe('a Redis that goes away and comes back', () => {
    let server: ChildProcess | undefined;
    const startRedis = (port: number) => {
      server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    };
    afterAll(() => {
      server?.kill('SIGKILL');
    });

    it('serves on per-instance limits during the outage and shares them again afterwards', { timeout: 30_000 }, async () => {
      const port = await freePort();
      startRedis(port);
      const { logger, lines } = capture();
      const { seen, observer } = countingObserver();
      const prefix = uniqueRedisPrefix();
      let store: RedisLimitStore;
      for (;;) {
        store = await openStore({ url: `redis://127.0.0.1:${port}`, prefix, observer, logger });
        if (!store.isDown) break;
        await store.close();
      }
      const limiter = new RedisRateLimiter(store);
      const peerStore = await openStore({ url: `redis://127.0.0.1:${port}`, prefix });
      const peer = new RedisRateLimiter(peerStore);
      const limits = { rpm: 3, tpm: 0 };
      expect((await limiter.admit('k', limits, 1, Date.now())).ok).toBe(true);
      expect((await peer.admit('k', limits, 1, Date.now())).ok).toBe(true);

      server!.kill('SIGKILL');
      await until(() => store.isDown);
      // Outage: this instance alone decides, with the key's full limit, and never throws.
      const during = [];
      for (let i = 0; i < 4; i++) during.push((await limiter.admit('k', limits, 1, Date.now())).ok);
      expect(during).toEqual([true, true, true, false]);
      expect(seen.fallbacks).toBe(4);

      startRedis(port);
      await until(() => !store.isDown);
      expect(lines.map((l) => l.msg)).toContain('Redis answers again: per-key limits are shared again');
      // Shared again: the restarted Redis is empty, so the two instances now share one fresh budget of 3.
      await until(() => !peerStore.isDown);
      const after = [];
      for (let i = 0; i < 4; i++) after.push((await (i % 2 ? peer : limiter).admit('k', limits, 1, Date.now())).ok);
      expect(after).toEqual([true, true, true, false]);
      expect(seen.up.at(-1)).toBe(true);
    });
  });
});
