// Which circuit breaker the gateway uses: this process's own (one instance, the default), or the one shared through
// Redis when MODELGATE_REDIS_URL is set, so that every instance skips an endpoint any of them saw failing.
import type { Config } from '../config.js';
import type { RedisLimitStore } from '../limits/redis-store.js';
import { InMemoryCircuitBreaker, type CircuitBreaker } from './circuit-breaker.js';
import { RedisCircuitBreaker } from './redis-circuit-breaker.js';

export function createCircuitBreaker(options: Config['breaker'], redis: RedisLimitStore | undefined): CircuitBreaker {
  return redis ? new RedisCircuitBreaker(redis, options) : new InMemoryCircuitBreaker(options);
}
