// Per-key request and token rate limits. The interface is what the pipeline uses; TokenBucketRateLimiter keeps
// state in this process, RedisRateLimiter (redis-rate-limiter.ts) shares it between instances.

export interface RateLimits {
  /** Requests per minute; 0 = unlimited. */
  rpm: number;
  /** Tokens per minute; 0 = unlimited. */
  tpm: number;
}

export interface RateState {
  limit: number;
  remaining: number;
  /** Unix ms when the request bucket is full again. */
  resetAtMs: number;
}

export type RateDecision =
  | { ok: true; state: RateState }
  | { ok: false; state: RateState; exceeded: 'requests' | 'tokens'; retryAfterSeconds: number };

export interface RateLimiter {
  /**
   * Takes one request and `tokens` (an estimate) from the key's budget, or says why not and for how long. The
   * in-process limiter answers synchronously; a shared store answers after a round trip.
   */
  admit(key: string, limits: RateLimits, tokens: number, nowMs: number): RateDecision | Promise<RateDecision>;
  /**
   * Takes tokens used during generation; false once the key is past its token budget. Synchronous on purpose (it
   * runs per streamed chunk): a shared store answers from what it last heard and counts in the background.
   */
  consumeTokens(key: string, limits: RateLimits, tokens: number, nowMs: number): boolean;
}

/** A bucket refilling linearly at capacity per minute: a smooth sliding limit without per-minute edges. */
class Bucket {
  constructor(
    public level: number,
    public updatedMs: number,
  ) {}

  refill(capacity: number, nowMs: number): void {
    const elapsed = Math.max(0, nowMs - this.updatedMs);
    this.level = Math.min(capacity, this.level + (elapsed * capacity) / 60_000);
    this.updatedMs = nowMs;
  }

  msUntil(amount: number, capacity: number): number {
    return amount <= this.level ? 0 : Math.ceil(((amount - this.level) * 60_000) / capacity);
  }
}

interface KeyBuckets {
  requests: Bucket;
  tokens: Bucket;
  touchedMs: number;
}

const IDLE_EVICT_MS = 5 * 60_000;

export class TokenBucketRateLimiter implements RateLimiter {
  private readonly keys = new Map<string, KeyBuckets>();
  private lastSweepMs = 0;

  admit(key: string, limits: RateLimits, tokens: number, nowMs: number): RateDecision {
    const buckets = this.bucketsFor(key, limits, nowMs);
    const state = this.state(buckets, limits, nowMs);
    if (limits.rpm > 0 && buckets.requests.level < 1) {
      return { ok: false, state, exceeded: 'requests', retryAfterSeconds: Math.ceil(buckets.requests.msUntil(1, limits.rpm) / 1000) };
    }
    // A request larger than the whole budget may run when the budget is full, or it could never run.
    const tokenNeed = limits.tpm > 0 ? Math.min(tokens, limits.tpm) : 0;
    if (limits.tpm > 0 && buckets.tokens.level < tokenNeed) {
      return { ok: false, state, exceeded: 'tokens', retryAfterSeconds: Math.max(1, Math.ceil(buckets.tokens.msUntil(tokenNeed, limits.tpm) / 1000)) };
    }
    if (limits.rpm > 0) buckets.requests.level -= 1;
    if (limits.tpm > 0) buckets.tokens.level -= tokens;
    return { ok: true, state: this.state(buckets, limits, nowMs) };
  }

  consumeTokens(key: string, limits: RateLimits, tokens: number, nowMs: number): boolean {
    if (limits.tpm <= 0) return true;
    const buckets = this.bucketsFor(key, limits, nowMs);
    buckets.tokens.level -= tokens;
    return buckets.tokens.level >= 0;
  }

  private state(buckets: KeyBuckets, limits: RateLimits, nowMs: number): RateState {
    if (limits.rpm <= 0) return { limit: 0, remaining: 0, resetAtMs: nowMs };
    return {
      limit: limits.rpm,
      remaining: Math.max(0, Math.floor(buckets.requests.level)),
      resetAtMs: nowMs + buckets.requests.msUntil(limits.rpm, limits.rpm),
    };
  }

  private bucketsFor(key: string, limits: RateLimits, nowMs: number): KeyBuckets {
    this.sweep(nowMs);
    let buckets = this.keys.get(key);
    if (!buckets) {
      buckets = { requests: new Bucket(limits.rpm, nowMs), tokens: new Bucket(limits.tpm, nowMs), touchedMs: nowMs };
      this.keys.set(key, buckets);
    }
    buckets.requests.refill(limits.rpm, nowMs);
    buckets.tokens.refill(limits.tpm, nowMs);
    buckets.touchedMs = nowMs;
    return buckets;
  }

  /** Keys idle long enough are back at full budget; dropping them bounds memory. */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < IDLE_EVICT_MS) return;
    this.lastSweepMs = nowMs;
    for (const [key, buckets] of this.keys) if (nowMs - buckets.touchedMs > IDLE_EVICT_MS) this.keys.delete(key);
  }
}
