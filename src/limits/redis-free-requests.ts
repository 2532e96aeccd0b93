// The free-model daily allowance shared by every instance through Redis (FREE_SCRIPT): one counter per account and
// UTC day, and one per key, seeded from the generation records the first time any instance needs them that day, so
// neither a restart nor a flushed Redis resets them. Without Redis, this instance's FreeRequestCounter decides
// (fail-open, per instance).
import type {
  FreeRequestAllowance,
  FreeRequestDecision,
  FreeRequestRecords,
  FreeRequestSubject,
} from './free-requests.js';
import { FreeRequestCounter, judgeFreeRequest, utcDayStart } from './free-requests.js';
import type { RedisLimitStore } from './redis-store.js';

const DAY_MS = 86_400_000;
/** Counters outlive their day by this much, so instances with slightly skewed clocks still share the last minutes. */
const KEEP_AFTER_DAY_MS = 3_600_000;

export class RedisFreeRequests implements FreeRequestAllowance {
  private fallback: FreeRequestCounter;

  constructor(
    private readonly store: RedisLimitStore,
    private readonly records: FreeRequestRecords,
  ) {
    this.fallback = new FreeRequestCounter(records);
    store.onRecover(() => (this.fallback = new FreeRequestCounter(records)));
  }

  async take(subject: FreeRequestSubject, nowMs: number): Promise<FreeRequestDecision> {
    const dayStartMs = utcDayStart(nowMs);
    // The account's id is the hash tag of both counters (redis-scripts.ts).
    const keys = [`${this.store.prefix}free:{${subject.accountId}}:${dayStartMs}`];
    if (subject.keyId !== undefined)
      keys.push(`${this.store.prefix}free:{${subject.accountId}}:key:${subject.keyId}:${dayStartMs}`);
    const ttlMs = dayStartMs + DAY_MS - nowMs + KEEP_AFTER_DAY_MS;
    const call = (accountSeed: string, keySeed: string) =>
      this.store.run('free', (redis) =>
        redis.mgFree(keys.length, ...keys, subject.accountLimit, subject.keyLimit ?? 0, ttlMs, accountSeed, keySeed),
      );
    let reply = await call('', '');
    if (reply !== undefined && Number(reply[0]) === -1) {
      // First request of the day anywhere (or Redis lost a counter): the records say how many were made.
      const since = new Date(dayStartMs);
      const [accountUsed, keyUsed] = await Promise.all([
        this.records.countForAccount(subject.accountId, since),
        subject.keyId === undefined ? 0 : this.records.countForKey(subject.keyId, since),
      ]);
      reply = await call(String(accountUsed), String(keyUsed));
    }
    if (reply === undefined) return this.fallback.take(subject, nowMs);
    const [status, accountUsed, keyUsed] = reply.map(Number);
    const decision = judgeFreeRequest(subject, accountUsed, keyUsed, nowMs);
    // The script decided; the shared rule only dresses its answer (which limit, which count).
    return { ...decision, ok: status === 1 };
  }
}
