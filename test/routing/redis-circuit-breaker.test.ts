// The circuit breaker shared through Redis: two breaker instances (as two gateway processes hold) on one Redis see one
// state per endpoint — failures seen by A open the endpoint for B, the half-open trial goes to one of them, the
// failure-rate window counts both — and a Redis that does not answer leaves each instance deciding on its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { RedisLimitStore, type SharedLimitsObserver } from '../../src/limits/redis-store.js';
import { RedisCircuitBreaker, type RedisBreakerOptions } from '../../src/routing/redis-circuit-breaker.js';
import { describeWithRedis, testRedisUrl, uniqueRedisPrefix } from '../helpers/redis-server.js';
import { freePort } from '../helpers/serve-process.js';

const stores: RedisLimitStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});

async function openStore(prefix: string, url = testRedisUrl(), observer?: SharedLimitsObserver) {
  const store = new RedisLimitStore({ url, prefix, timeoutMs: 500, logger: createLogger('silent'), observer });
  stores.push(store);
  await store.connect();
  return store;
}

/** Two instances on one Redis prefix with one injected clock. */
async function pair(options: Partial<RedisBreakerOptions> = {}) {
  const clock = { now: 1_000_000 };
  const prefix = uniqueRedisPrefix();
  const make = async (instanceId: string) =>
    new RedisCircuitBreaker(await openStore(prefix), {
      failureThreshold: 3,
      cooldownMs: 1000,
      clock: () => clock.now,
      instanceId,
      ...options,
    });
  return { clock, a: await make('a'), b: await make('b') };
}

describeWithRedis('circuit breaker shared on Redis', () => {
  it('failures seen by A open the endpoint for B (its next request is refused, its listing shows it open)', async () => {
    const { a, b } = await pair();
    expect(await b.allowRequest('m@p')).toBe(true); // B has now looked at the endpoint: closed
    for (let i = 0; i < 3; i++) await a.recordFailure('m@p');
    expect(a.state('m@p')).toBe('open');
    // B's mirror is fresh and says closed; the listing refreshes from Redis.
    expect(b.state('m@p')).toBe('closed');
    await b.refresh(['m@p', 'other@p']);
    expect(b.state('m@p')).toBe('open');
    expect(b.state('other@p')).toBe('closed');
    expect(await b.allowRequest('m@p')).toBe(false);
  });

  it('a request on B asks Redis once its mirror is older than the sync interval', async () => {
    const { a, b, clock } = await pair({ syncMs: 100 });
    expect(await b.allowRequest('m@p')).toBe(true);
    for (let i = 0; i < 3; i++) await a.recordFailure('m@p');
    clock.now += 100;
    expect(await b.allowRequest('m@p')).toBe(false);
    expect(b.state('m@p')).toBe('open');
  });

  it('counts consecutive failures across instances, and a success on either resets them', async () => {
    const { a, b } = await pair();
    await a.recordFailure('m@p');
    await b.recordFailure('m@p');
    await a.recordSuccess('m@p');
    await a.recordFailure('m@p');
    await b.recordFailure('m@p');
    expect(a.state('m@p')).toBe('closed');
    await a.recordFailure('m@p'); // third in a row (two on A, one on B)
    await b.refresh(['m@p']);
    expect(b.state('m@p')).toBe('open');
  });

  it('half-open: one trial across both instances; its success closes the endpoint for both', async () => {
    const { a, b, clock } = await pair();
    for (let i = 0; i < 3; i++) await b.recordFailure('m@p');
    clock.now += 1000;
    await a.refresh(['m@p']);
    expect(a.state('m@p')).toBe('half_open');
    const grants = await Promise.all([a.allowRequest('m@p'), b.allowRequest('m@p')]);
    expect(grants.filter(Boolean)).toHaveLength(1);
    const trial = grants[0] ? a : b;
    const other = grants[0] ? b : a;
    expect(await other.allowRequest('m@p')).toBe(false);
    await trial.recordSuccess('m@p');
    expect(await other.allowRequest('m@p')).toBe(true);
    expect(other.state('m@p')).toBe('closed');
  });

  it('a failed trial reopens the endpoint for a full cooldown on both instances', async () => {
    const { a, b, clock } = await pair();
    for (let i = 0; i < 3; i++) await a.recordFailure('m@p');
    clock.now += 1500;
    expect(await b.allowRequest('m@p')).toBe(true);
    await b.recordFailure('m@p');
    clock.now += 999;
    expect(await a.allowRequest('m@p')).toBe(false);
    clock.now += 1;
    expect(await a.allowRequest('m@p')).toBe(true);
  });

  it('the failure-rate window is shared: successes on A and failures on B add up to the rate', async () => {
    const { a, b } = await pair({
      failureThreshold: 100,
      failureRate: { percent: 50, windowMs: 10_000, minRequests: 10 },
    });
    for (let i = 0; i < 5; i++) {
      await a.recordSuccess('m@p');
      await b.recordFailure('m@p');
    }
    // 10 outcomes, 5 failed, none of them alone enough: open for both.
    expect(b.state('m@p')).toBe('open');
    await a.refresh(['m@p']);
    expect(a.state('m@p')).toBe('open');
    // Each instance's own history (5 outcomes) would not have opened it.
    expect(a.local.state('m@p')).toBe('closed');
    expect(b.local.state('m@p')).toBe('closed');
  });

  it('successes while open give no verdict (late answers of requests sent before it opened)', async () => {
    const { a, b } = await pair();
    for (let i = 0; i < 3; i++) await a.recordFailure('m@p');
    await b.recordSuccess('m@p');
    expect(b.state('m@p')).toBe('open');
  });
});

describe('circuit breaker on an unreachable Redis', () => {
  it("falls back to this instance's breaker: never throws, counts the fallbacks, still opens and skips", async () => {
    const fallbacks: string[] = [];
    const observer: SharedLimitsObserver = {
      redisFallback: (operation) => void fallbacks.push(operation),
      redisUp: () => undefined,
    };
    const store = await openStore(uniqueRedisPrefix(), `redis://127.0.0.1:${await freePort()}`, observer);
    expect(store.isDown).toBe(true);
    const clock = { now: 0 };
    const breaker = new RedisCircuitBreaker(store, { failureThreshold: 2, cooldownMs: 1000, clock: () => clock.now });
    expect(await breaker.allowRequest('m@p')).toBe(true);
    await breaker.recordFailure('m@p');
    await breaker.recordFailure('m@p');
    expect(breaker.state('m@p')).toBe('open');
    expect(await breaker.allowRequest('m@p')).toBe(false);
    await breaker.refresh(['m@p']);
    expect(breaker.state('m@p')).toBe('open');
    clock.now = 1000;
    expect(await breaker.allowRequest('m@p')).toBe(true);
    await breaker.recordSuccess('m@p');
    expect(breaker.state('m@p')).toBe('closed');
    expect(fallbacks.length).toBeGreaterThan(0);
    expect(new Set(fallbacks)).toEqual(new Set(['breaker']));
  });
});

describeWithRedis('circuit breaker when Redis goes away and comes back', () => {
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

  async function until(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  it('decides on its own during the outage, never throwing, and shares again afterwards', {
    timeout: 30_000,
  }, async () => {
    const port = await freePort();
    startRedis(port);
    const prefix = uniqueRedisPrefix();
    const url = `redis://127.0.0.1:${port}`;
    const open = async () => {
      for (;;) {
        const store = await openStore(prefix, url);
        if (!store.isDown) return store;
        await store.close();
      }
    };
    const clock = { now: 1_000_000 };
    const options = { failureThreshold: 2, cooldownMs: 1000, clock: () => clock.now };
    const [storeA, storeB] = [await open(), await open()];
    const a = new RedisCircuitBreaker(storeA, { ...options, instanceId: 'a' });
    const b = new RedisCircuitBreaker(storeB, { ...options, instanceId: 'b' });
    await a.recordFailure('m@p'); // shared: one failure

    server!.kill('SIGKILL');
    await until(() => storeA.isDown && storeB.isDown);
    // Outage: A's own history (that failure, and this one) opens the endpoint on A alone.
    await a.recordFailure('m@p');
    expect(a.state('m@p')).toBe('open');
    expect(await a.allowRequest('m@p')).toBe(false);
    expect(await b.allowRequest('m@p')).toBe(true);
    await b.refresh(['m@p']);
    expect(b.state('m@p')).toBe('closed');

    startRedis(port);
    await until(() => !storeA.isDown && !storeB.isDown);
    // The restarted Redis is empty: shared again from a clean state; B's failures open it for A.
    clock.now += 1000;
    await b.recordFailure('m@p');
    await b.recordFailure('m@p');
    await a.refresh(['m@p']);
    expect(a.state('m@p')).toBe('open');
  });
});
