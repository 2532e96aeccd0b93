// Redis for the shared-limits suites: the server scripts/ensure-redis.sh starts on 127.0.0.1:6379, or
// TEST_REDIS_URL. Suites run when it answers, are skipped loudly when not, and fail when CI=true (.ci/run starts it).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, it } from 'vitest';

export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';

export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL?.trim() || DEFAULT_TEST_REDIS_URL;
}

export type RedisProbe = { available: true; url: string } | { available: false; url: string; reason: string };

/** Answers within about `timeoutMs` whether a Redis at `url` answers PING. */
export async function probeRedis(url: string, timeoutMs = 1000): Promise<RedisProbe> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return { available: true, url };
  } catch (error) {
    return { available: false, url, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    client.disconnect();
  }
}

// Top-level await: whether Redis answers must be known while vitest collects the suites.
const redis = await probeRedis(testRedisUrl());
let skipNoticeShown = false;

export function redisAvailability(): RedisProbe {
  return redis;
}

/** A key prefix of its own, so suites (and engineers) sharing one Redis never see each other's counters. */
export function uniqueRedisPrefix(): string {
  return `mgtest:${randomBytes(6).toString('hex')}:`;
}

/** A suite that needs Redis: runs when a server answers, fails when CI=true, else is skipped loudly. */
export function describeWithRedis(name: string, fn: () => void): void {
  if (redis.available) {
    describe(name, fn);
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs Redis because CI=true', () => {
        throw new Error(`Redis is required when CI=true but ${redis.url} did not answer: ${redis.reason}`);
      });
    });
  } else {
    if (!skipNoticeShown) {
      skipNoticeShown = true;
      console.warn(
        `[redis tests] SKIPPING the Redis-backed suites: ${redis.url} did not answer (${redis.reason}). ` +
          'Run scripts/ensure-redis.sh or set TEST_REDIS_URL to run them.',
      );
    }
    describe.skip(`${name} (no Redis server)`, fn);
  }
}
