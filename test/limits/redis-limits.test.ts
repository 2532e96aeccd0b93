// Shared limits on a real Redis: several limiter instances (as several gateway processes would hold) count against
// one budget, atomically: an account's, shared by its keys, and a key's own; an unreachable Redis falls back to
// per-instance limits and recovers.
import { spawn, type ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { RedisLimitStore, type SharedLimitsObserver } from '../../src/limits/redis-store.js';
import { RedisRateLimiter } from '../../src/limits/redis-rate-limiter.js';
import { RedisFreeRequests } from '../../src/limits/redis-free-requests.js';
import type { RateBudget, RateLimits } from '../../src/limits/rate-limiter.js';
import type { FreeRequestRecords } from '../../src/limits/free-requests.js';

/** One budget alone, as an account without keys of their own limits has. */
const only = (bucket: string, limits: RateLimits): RateBudget[] => [{ scope: 'account', bucket, limits }];
/** Records that say every account and key made `used` free requests today, counting the reads. */
const seeded = (used: number, reads = { count: 0 }): FreeRequestRecords => ({
  countForAccount: async () => {
    reads.count++;
    return used;
  },
  countForKey: async () => {
    reads.count++;
    return used;
  },
});
import { describeWithRedis, testRedisUrl, uniqueRedisPrefix } from '../helpers/redis-server.js';
import { freePort } from '../helpers/serve-process.js';

const stores: RedisLimitStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});

function capture() {
  const lines: { level: number; msg: string }[] = [];
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  return { logger, lines };
}

function countingObserver() {
  const seen = { fallbacks: 0, up: [] as boolean[] };
  const observer: SharedLimitsObserver = {
    redisFallback: () => void seen.fallbacks++,
    redisUp: (up) => void seen.up.push(up),
  };
  return { seen, observer };
}

async function openStore(options: {
  url?: string;
  prefix: string;
  observer?: SharedLimitsObserver;
  logger?: ReturnType<typeof capture>['logger'];
}) {
  const store = new RedisLimitStore({
    url: options.url ?? testRedisUrl(),
    prefix: options.prefix,
    timeoutMs: 500,
    logger: options.logger ?? createLogger('silent'),
    observer: options.observer,
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
    const limiters = [
      new RedisRateLimiter(await openStore({ prefix })),
      new RedisRateLimiter(await openStore({ prefix })),
    ];
    const limits = { rpm: 10, tpm: 0 };
    const decisions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => limiters[i % 2].admit(only('key-a', limits), 5, Date.now())),
    );
    expect(decisions.filter((d) => d.ok)).toHaveLength(10);
    const refused = decisions.find((d) => !d.ok)!;
    expect(refused).toMatchObject({ ok: false, exceeded: 'requests', state: { limit: 10, remaining: 0 } });
    expect(refused.ok === false && refused.retryAfterSeconds).toBeGreaterThan(0);
    // Another key has its own budget.
    expect((await limiters[1].admit(only('key-b', limits), 5, Date.now())).ok).toBe(true);
  });

  it('starts a limit switched on later from a full bucket', async () => {
    const limiter = new RedisRateLimiter(await openStore({ prefix: uniqueRedisPrefix() }));
    // Only a token limit at first: the request bucket is not kept.
    expect((await limiter.admit(only('k', { rpm: 0, tpm: 1000 }), 10, Date.now())).ok).toBe(true);
    const decisions = [];
    for (let i = 0; i < 3; i++)
      decisions.push((await limiter.admit(only('k', { rpm: 2, tpm: 1000 }), 10, Date.now())).ok);
    expect(decisions).toEqual([true, true, false]);
  });

  it('shares the token budget: tokens used on one instance refuse admission on the other', async () => {
    const prefix = uniqueRedisPrefix();
    const [one, two] = [
      new RedisRateLimiter(await openStore({ prefix })),
      new RedisRateLimiter(await openStore({ prefix })),
    ];
    const limits = { rpm: 0, tpm: 1000 };
    expect((await one.admit(only('k', limits), 100, Date.now())).ok).toBe(true);
    // Generation on instance one counts 950 tokens: past the budget, which it knows at once from its last answer.
    expect(one.consumeTokens(only('k', limits), 950, Date.now())).toBe(false);
    // The consumption leaves after this event-loop turn, on instance one's connection; a command sent after it on
    // the same connection is answered after it, so once that answer is in, Redis has counted the 950.
    await new Promise((resolve) => setImmediate(resolve));
    await one.admit(only('k', limits), 0, Date.now());
    expect(await two.admit(only('k', limits), 100, Date.now())).toMatchObject({ ok: false, exceeded: 'tokens' });
  });

  it("reports the tightest token budget's state and a refusal's wait in milliseconds, as the in-process limiter", async () => {
    const limiter = new RedisRateLimiter(await openStore({ prefix: uniqueRedisPrefix() }));
    const now = Date.now();
    const admitted = await limiter.admit(only('tokens', { rpm: 0, tpm: 1000 }), 250, now);
    // Read in the same script that took the tokens: full again in 250/1000 of a minute.
    expect(admitted).toMatchObject({
      ok: true,
      tokens: { limit: 1000, remaining: 750, resetInMs: 15_000, resetAtMs: now + 15_000 },
    });
    const single = only('single', { rpm: 1, tpm: 0 });
    expect((await limiter.admit(single, 0, now)).ok).toBe(true);
    const refused = await limiter.admit(single, 0, now);
    expect(refused).toMatchObject({ ok: false, exceeded: 'requests' });
    if (refused.ok) return;
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(refused.retryAfterSeconds).toBe(Math.ceil(refused.retryAfterMs / 1000));
  });

  it('counts the free-model allowance once across instances, seeded from the records of the day', async () => {
    const prefix = uniqueRedisPrefix();
    const reads = { count: 0 };
    const records = seeded(1, reads);
    const [one, two] = [
      new RedisFreeRequests(await openStore({ prefix }), records),
      new RedisFreeRequests(await openStore({ prefix }), records),
    ];
    const now = Date.now();
    const decisions = await Promise.all(
      [one, two, one, two, one].map((free) => free.take({ accountId: 'acct-f', accountLimit: 3 }, now)),
    );
    expect(decisions.filter((d) => d.ok)).toHaveLength(2);
    expect(decisions.filter((d) => !d.ok)[0]).toMatchObject({ ok: false, limit: 3, used: 3 });
    expect(reads.count).toBeGreaterThanOrEqual(1);
    // The next UTC day starts over (a new counter, seeded again).
    expect((await one.take({ accountId: 'acct-f', accountLimit: 3 }, now + 86_400_000)).ok).toBe(true);
  });

  it("spends one account's requests per minute across its keys and instances, and a key's tighter own limit", async () => {
    const prefix = uniqueRedisPrefix();
    const limiters = [
      new RedisRateLimiter(await openStore({ prefix })),
      new RedisRateLimiter(await openStore({ prefix })),
    ];
    const account: RateBudget = { scope: 'account', bucket: '{acct-r}', limits: { rpm: 6, tpm: 0 } };
    const own = (key: string, rpm: number): RateBudget => ({
      scope: 'key',
      bucket: `{acct-r}:${key}`,
      limits: { rpm, tpm: 0 },
    });
    // Three keys without limits of their own, and one with 2 of its own, on two instances at once.
    const budgets = [[account], [account], [account], [own('tight', 2), account]];
    const decisions = await Promise.all(
      Array.from({ length: 16 }, (_, i) => limiters[i % 2].admit(budgets[i % 4], 1, Date.now())),
    );
    const admitted = decisions.filter((d) => d.ok).length;
    expect(admitted).toBe(6);
    const byTight = decisions.filter((_, i) => i % 4 === 3);
    expect(byTight.filter((d) => d.ok).length).toBeLessThanOrEqual(2);
    const refused = decisions.find((d, i) => !d.ok && i % 4 !== 3)!;
    expect(refused).toMatchObject({
      ok: false,
      exceeded: 'requests',
      budget: { scope: 'account' },
      state: { limit: 6, remaining: 0 },
    });
    // Past its own 2 the key is refused by its own limit even where the account has room.
    const fresh = uniqueRedisPrefix();
    const limiter = new RedisRateLimiter(await openStore({ prefix: fresh }));
    const roomy: RateBudget = { ...account, limits: { rpm: 100, tpm: 0 } };
    const tight = [own('tight', 2), roomy];
    expect((await limiter.admit(tight, 1, Date.now())).state).toMatchObject({ limit: 2, remaining: 1 });
    expect((await limiter.admit(tight, 1, Date.now())).ok).toBe(true);
    expect(await limiter.admit(tight, 1, Date.now())).toMatchObject({
      ok: false,
      budget: { scope: 'key', bucket: '{acct-r}:tight' },
    });
    // The refusal took nothing from the account: 98 left.
    expect((await limiter.admit([roomy], 1, Date.now())).state).toMatchObject({ limit: 100, remaining: 97 });
  });

  it("counts one free allowance across an account's keys and instances, and a key's tighter own allowance", async () => {
    const prefix = uniqueRedisPrefix();
    const reads = { count: 0 };
    const records = seeded(0, reads);
    const [one, two] = [
      new RedisFreeRequests(await openStore({ prefix }), records),
      new RedisFreeRequests(await openStore({ prefix }), records),
    ];
    const now = Date.now();
    const keys = ['key-1', 'key-2', 'key-3'];
    const decisions = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? two : one).take({ accountId: 'acct-s', accountLimit: 4, keyId: keys[i % 3] }, now),
      ),
    );
    expect(decisions.filter((d) => d.ok)).toHaveLength(4);
    expect(decisions.find((d) => !d.ok)).toMatchObject({ scope: 'account', limit: 4, used: 4 });
    // A key with an allowance of 1 of its own, in an account with room.
    const own = { accountId: 'acct-t', accountLimit: 10, keyId: 'key-t', keyLimit: 1 };
    expect((await one.take(own, now)).ok).toBe(true);
    expect(await two.take(own, now)).toMatchObject({ ok: false, scope: 'key', limit: 1, used: 1 });
    expect((await two.take({ accountId: 'acct-t', accountLimit: 10, keyId: 'key-u' }, now)).ok).toBe(true);
    // The refused request was counted on neither: the account has used 2 of its 10.
    const after = await one.take({ accountId: 'acct-t', accountLimit: 2, keyId: 'key-u' }, now);
    expect(after).toMatchObject({ ok: false, scope: 'account', used: 2 });
  });

  it('falls back to per-instance limits at once when Redis is unreachable, logged once and counted', async () => {
    const { logger, lines } = capture();
    const { seen, observer } = countingObserver();
    const store = await openStore({
      url: `redis://127.0.0.1:${await freePort()}`,
      prefix: uniqueRedisPrefix(),
      observer,
      logger,
    });
    const limiter = new RedisRateLimiter(store);
    const free = new RedisFreeRequests(store, seeded(0));
    const limits = { rpm: 2, tpm: 0 };
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await limiter.admit(only('k', limits), 1, Date.now()));
    expect(decisions.map((d) => d.ok)).toEqual([true, true, false]);
    expect((await free.take({ accountId: 'a', accountLimit: 1 }, Date.now())).ok).toBe(true);
    expect((await free.take({ accountId: 'a', accountLimit: 1 }, Date.now())).ok).toBe(false);
    expect(limiter.consumeTokens(only('k', { rpm: 0, tpm: 10 }), 20, Date.now())).toBe(false);
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
      server = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      const { seen, observer } = countingObserver();
      let store: RedisLimitStore;
      for (;;) {
        store = await openStore({ url: `redis://127.0.0.1:${port}`, prefix: uniqueRedisPrefix(), observer });
        if (!store.isDown) break;
        await store.close();
      }
      const limiter = new RedisRateLimiter(store);
      const limits = { rpm: 3, tpm: 0 };
      expect((await limiter.admit(only('k', limits), 1, Date.now())).ok).toBe(true);
      // Stopped, not gone: the connection stays open and commands get no answer (the command timeout ends them).
      server.kill('SIGSTOP');
      const during = [];
      for (let i = 0; i < 4; i++) during.push((await limiter.admit(only('k', limits), 1, Date.now())).ok);
      expect(store.isDown).toBe(true);
      // This instance's own bucket, full at the start of the stall.
      expect(during).toEqual([true, true, true, false]);
      expect(seen.fallbacks).toBe(4);
      server.kill('SIGCONT');
      // One request per second probes Redis; the first probe that is answered shares the limits again.
      while (store.isDown) {
        await limiter.admit(only('k', limits), 1, Date.now());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Redis kept its count (1 taken before the stall, plus the probe that was answered).
      const after = await limiter.admit(only('k', limits), 1, Date.now());
      expect(after.state.limit).toBe(3);
      expect(after.state.remaining).toBeLessThanOrEqual(1);
    });
  });

  describe('a Redis that goes away and comes back', () => {
    let server: ChildProcess | undefined;
    const startRedis = (port: number) => {
      server = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
    };
    afterAll(() => {
      server?.kill('SIGKILL');
    });

    it('serves on per-instance limits during the outage and shares them again afterwards', {
      timeout: 30_000,
    }, async () => {
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
      expect((await limiter.admit(only('k', limits), 1, Date.now())).ok).toBe(true);
      expect((await peer.admit(only('k', limits), 1, Date.now())).ok).toBe(true);

      server!.kill('SIGKILL');
      await until(() => store.isDown);
      // Outage: this instance alone decides, with the key's full limit, and never throws.
      const during = [];
      for (let i = 0; i < 4; i++) during.push((await limiter.admit(only('k', limits), 1, Date.now())).ok);
      expect(during).toEqual([true, true, true, false]);
      expect(seen.fallbacks).toBe(4);

      startRedis(port);
      await until(() => !store.isDown);
      expect(lines.map((l) => l.msg)).toContain(
        'Redis answers again: rate limits and free allowances are shared again',
      );
      // Shared again: the restarted Redis is empty, so the two instances now share one fresh budget of 3.
      await until(() => !peerStore.isDown);
      const after = [];
      for (let i = 0; i < 4; i++)
        after.push((await (i % 2 ? peer : limiter).admit(only('k', limits), 1, Date.now())).ok);
      expect(after).toEqual([true, true, true, false]);
      expect(seen.up.at(-1)).toBe(true);
    });
  });
});
