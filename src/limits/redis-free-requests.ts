// The free-model daily allowance shared by every instance through Redis (FREE_SCRIPT): one counter per key and UTC
// day, seeded from the generation records the first time any instance needs it that day, so neither a restart nor
// a flushed Redis resets it. Without Redis, this instance's FreeRequestCounter decides (fail-open, per instance).
import type { CountFreeRequestsSince, FreeRequestAllowance, FreeRequestDecision } from './free-requests.js';
import { FreeRequestCounter, utcDayStart } from './free-requests.js';
import type { RedisLimitStore } from './redis-store.js';

const DAY_MS = 86_400_000;
/** Counters outlive their day by this much, so instances with slightly skewed clocks still share the last minutes. */
const KEEP_AFTER_DAY_MS = 3_600_000;

export class RedisFreeRequests implements FreeRequestAllowance {
  private fallback: FreeRequestCounter;

  constructor(
    private readonly store: RedisLimitStore,
    private readonly countSince: CountFreeRequestsSince,
  ) {
    this.fallback = new FreeRequestCounter(countSince);
    store.onRecover(() => (this.fallback = new FreeRequestCounter(countSince)));
  }

  async take(keyId: string, limit: number, nowMs: number): Promise<FreeRequestDecision> {
    const dayStartMs = utcDayStart(nowMs);
    const retryAfterSeconds = Math.ceil((dayStartMs + DAY_MS - nowMs) / 1000);
    const key = `${this.store.prefix}free:${keyId}:${dayStartMs}`;
    const ttlMs = dayStartMs + DAY_MS - nowMs + KEEP_AFTER_DAY_MS;
    let reply = await this.store.run('free', (redis) => redis.mgFree(key, limit, ttlMs, ''));
    if (reply !== undefined && Number(reply[0]) === -1) {
      // First request of the day anywhere (or Redis lost the counter): the records say how many were made.
      const used = await this.countSince(keyId, new Date(dayStartMs));
      reply = await this.store.run('free', (redis) => redis.mgFree(key, limit, ttlMs, String(used)));
    }
    if (reply === undefined) return this.fallback.take(keyId, limit, nowMs);
    return { ok: Number(reply[0]) === 1, limit, used: Number(reply[1]), retryAfterSeconds };
  }
}
