// Which store the response cache uses: the Redis every instance shares when MODELGATE_REDIS_URL is set (under
// `<MODELGATE_REDIS_PREFIX>rc:`), else this process's memory, bounded in bytes.
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { ResponseCacheStore } from './cache-store.js';
import { MemoryCacheStore } from './memory-store.js';
import { RedisCacheStore } from './redis-store.js';
import { ResponseCache } from './response-cache.js';

export function createResponseCache(
  config: Pick<Config, 'redisUrl' | 'redisPrefix' | 'redisTimeoutMs' | 'responseCache'>,
  logger: Logger,
): ResponseCache {
  const { memoryBytes, maxEntryBytes, priceFractionPpm } = config.responseCache;
  let store: ResponseCacheStore;
  if (config.redisUrl) {
    const redis = new RedisCacheStore({
      url: config.redisUrl,
      prefix: `${config.redisPrefix}rc:`,
      timeoutMs: config.redisTimeoutMs,
      maxEntryBytes,
      logger,
    });
    redis.connect();
    store = redis;
  } else {
    store = new MemoryCacheStore(memoryBytes, maxEntryBytes);
  }
  return new ResponseCache(store, { maxEntryBytes, priceFractionPpm }, logger);
}
