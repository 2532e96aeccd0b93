// Per-key daily allowance of requests to free models. The count of the current UTC day is loaded once per key
// from the generation records (so a restart does not reset it) and then kept in this process.

export interface FreeRequestDecision {
  ok: boolean;
  limit: number;
  used: number;
  /** Seconds until the next UTC midnight. */
  retryAfterSeconds: number;
}

/** What admission uses: FreeRequestCounter in this process, RedisFreeRequests shared between instances. */
export interface FreeRequestAllowance {
  /** Counts one request to a free model against the key's allowance of the UTC day of `nowMs`, or refuses it. */
  take(keyId: string, limit: number, nowMs: number): Promise<FreeRequestDecision>;
}

export type CountFreeRequestsSince = (keyId: string, since: Date) => Promise<number>;

export function utcDayStart(nowMs: number): number {
  const day = new Date(nowMs);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
}

export class FreeRequestCounter implements FreeRequestAllowance {
  private readonly counts = new Map<string, { dayStartMs: number; used: Promise<number> }>();

  constructor(private readonly countSince: CountFreeRequestsSince) {}

  async take(keyId: string, limit: number, nowMs: number): Promise<FreeRequestDecision> {
    const dayStartMs = utcDayStart(nowMs);
    const retryAfterSeconds = Math.ceil((dayStartMs + 86_400_000 - nowMs) / 1000);
    let entry = this.counts.get(keyId);
    if (!entry || entry.dayStartMs !== dayStartMs) {
      entry = { dayStartMs, used: this.countSince(keyId, new Date(dayStartMs)) };
      this.counts.set(keyId, entry);
    }
    // Chained on the promise, so concurrent requests of one key count one after another.
    const previous = entry.used;
    let decision!: FreeRequestDecision;
    entry.used = previous.then((used) => {
      decision = { ok: limit <= 0 || used < limit, limit, used, retryAfterSeconds };
      return decision.ok ? used + 1 : used;
    });
    try {
      await entry.used;
    } catch (err) {
      this.counts.delete(keyId);
      throw err;
    }
    return decision;
  }
}
