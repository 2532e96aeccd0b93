// Which limiter the gateway uses: in this process (one instance, the default), or shared through Redis when
// MODELGATE_REDIS_URL is set (many instances or cluster workers behaving as one gateway).
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { FreeRequestCounter, type FreeRequestAllowance, type FreeRequestRecords } from './free-requests.js';
import { TokenBucketRateLimiter, type RateLimiter } from './rate-limiter.js';
import { RedisFreeRequests } from './redis-free-requests.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';
import { RedisLimitStore, type SharedLimitsObserver } from './redis-store.js';

export interface GatewayLimits {
  limiter: RateLimiter;
  freeRequests: FreeRequestAllowance;
  /** 'redis' or 'memory', for the start-up log line. */
  store: 'redis' | 'memory';
  /** The Redis connection (with MODELGATE_REDIS_URL), for the other shared state: the routing circuit breaker. */
  redis?: RedisLimitStore;
  /** Whether decisions currently fall back to this instance (Redis not answering). */
  isDown(): boolean;
  close(): Promise<void>;
}

export async function createLimits(
  config: Pick<Config, 'redisUrl' | 'redisPrefix' | 'redisTimeoutMs'>,
  records: FreeRequestRecords,
  logger: Logger,
  observer?: SharedLimitsObserver,
): Promise<GatewayLimits> {
  if (!config.redisUrl) {
    return {
      limiter: new TokenBucketRateLimiter(),
      freeRequests: new FreeRequestCounter(records),
      store: 'memory',
      isDown: () => false,
      close: async () => undefined,
    };
  }
  const store = new RedisLimitStore({
    url: config.redisUrl,
    prefix: config.redisPrefix,
    timeoutMs: config.redisTimeoutMs,
    logger,
    observer,
  });
  await store.connect();
  return {
    limiter: new RedisRateLimiter(store),
    freeRequests: new RedisFreeRequests(store, records),
    store: 'redis',
    redis: store,
    isDown: () => store.isDown,
    close: () => store.close(),
  };
}
