// The session-affinity store shared through Redis: what one instance remembers, another reads; the entry expires its
// TTL after the last served turn (PX), holds only the hashed key; a Redis that does not answer leaves each instance
// with its own memory (counted as an `affinity` fallback), never an error.
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { RedisLimitStore, type SharedLimitsObserver } from '../../src/limits/redis-store.js';
import { affinityKey, RedisAffinityStore } from '../../src/routing/session-affinity.js';
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

describeWithRedis('session affinity on Redis', () => {
  it('one instance remembers, the other reads; the key is hashed and expires its TTL after the last turn', async () => {
    const prefix = uniqueRedisPrefix();
    const options = { ttlMs: 60_000, maxEntries: 10 };
    const a = new RedisAffinityStore(await openStore(prefix), options);
    const b = new RedisAffinityStore(await openStore(prefix), options);
    const key = affinityKey('usr_1', 'east/chat', 'thread-secret');
    expect(await b.get(key)).toBeUndefined();
    await a.set(key, 'east/chat@west');
    expect(await b.get(key)).toBe('east/chat@west');
    expect(b.local.get(key)).toBeUndefined(); // b's answer came from Redis

    const redis = new Redis(testRedisUrl());
    try {
      const keys = await redis.keys(`${prefix}*`);
      expect(keys).toEqual([`${prefix}affinity:${key}`]);
      expect(keys[0]).not.toContain('thread-secret');
      const ttl = await redis.pttl(keys[0]);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      redis.disconnect();
    }
  });

  it('a Redis that does not answer: each instance decides on what it served itself, and counts the fallback', async () => {
    const fallbacks: string[] = [];
    const observer: SharedLimitsObserver = {
      redisFallback: (operation) => fallbacks.push(operation),
      redisUp: () => undefined,
    };
    const store = new RedisAffinityStore(
      await openStore(uniqueRedisPrefix(), `redis://127.0.0.1:${await freePort()}`, observer),
      { ttlMs: 60_000, maxEntries: 10 },
    );
    expect(await store.get('k')).toBeUndefined();
    await store.set('k', 'east/chat@east');
    expect(await store.get('k')).toBe('east/chat@east');
    expect(new Set(fallbacks)).toEqual(new Set(['affinity']));
  });
});
