// Request and token rate limits, counted per budget: a request takes from its account's budget and, when its key has
// limits of its own, from the key's as well (admit-rate.ts builds the list), so several keys of one account share
// one budget. The interface is what the pipeline uses; TokenBucketRateLimiter keeps state in this process,
// RedisRateLimiter (redis-rate-limiter.ts) shares it between instances. Both judge with `judgeBudgets`.
import type { RateState } from '../core/rate-report.js';

export interface RateLimits {
  /** Requests per minute; 0 = unlimited. */
  rpm: number;
  /** Tokens per minute; 0 = unlimited. */
  tpm: number;
}

/** One budget a request takes from: whose it is, the name of its buckets and their limits. */
export interface RateBudget {
  scope: 'account' | 'key';
  bucket: string;
  limits: RateLimits;
}

export type { RateState };

/**
 * `state`: the request budget with the fewest requests left (limit 0 when none has a limit); `tokens`: the token budget
 * with the fewest tokens left, when one has a limit.
 */
export type RateDecision =
  | { ok: true; state: RateState; tokens?: RateState }
  | {
      ok: false;
      state: RateState;
      tokens?: RateState;
      exceeded: 'requests' | 'tokens';
      retryAfterSeconds: number;
      /** The wait as measured, for a door whose clients read it in milliseconds. */
      retryAfterMs: number;
      budget: RateBudget;
    };

export interface RateLimiter {
  /**
   * Takes one request and `tokens` (an estimate) from every budget, or from none when one of them cannot give it, and
   * then says which and for how long, with the state of the tightest request and token budgets (RateDecision).
   * The in-process limiter answers synchronously; a shared store answers after a round trip.
   */
  admit(budgets: readonly RateBudget[], tokens: number, nowMs: number): RateDecision | Promise<RateDecision>;
  /**
   * Takes tokens used during generation from every budget; false once one is past its token limit. Synchronous on
   * purpose (it runs per streamed chunk): a shared store answers from what it last heard and counts in the background.
   */
  consumeTokens(budgets: readonly RateBudget[], tokens: number, nowMs: number): boolean;
}

/** One budget's buckets as a limiter read them: after taking, when the request was admitted. */
export interface BudgetReading {
  /** Requests left. */
  requests: number;
  /** Tokens left. */
  tokens: number;
  /** ms until the request bucket holds one request, and until it is full. */
  waitRequestMs: number;
  fullMs: number;
  /** ms until the token bucket holds what the request needs. */
  waitTokensMs: number;
}

/**
 * The decision over every budget's reading. `admitted`: the readings are after taking; else the first budget that
 * could not give the request refuses it (requests before tokens). The state shown is the tightest request budget's, and
 * the tightest token budget's beside it.
 */
export function judgeBudgets(
  budgets: readonly RateBudget[],
  readings: readonly BudgetReading[],
  { admitted, tokens, nowMs }: { admitted: boolean; tokens: number; nowMs: number },
): RateDecision {
  let state: RateState = { limit: 0, remaining: 0, resetAtMs: nowMs, resetInMs: 0 };
  let tightest = Infinity;
  let tokenState: RateState | undefined;
  let fewestTokens = Infinity;
  for (let i = 0; i < budgets.length; i++) {
    const { rpm, tpm } = budgets[i].limits;
    if (tpm > 0 && readings[i].tokens < fewestTokens) {
      fewestTokens = readings[i].tokens;
      // From the level alone, so both limiters answer alike (Redis reports the level, floored).
      const fullMs = Math.ceil((Math.max(0, tpm - fewestTokens) * 60_000) / tpm);
      tokenState = {
        limit: tpm,
        remaining: Math.max(0, Math.floor(fewestTokens)),
        resetAtMs: nowMs + fullMs,
        resetInMs: fullMs,
      };
    }
    if (rpm <= 0 || readings[i].requests >= tightest) continue;
    tightest = readings[i].requests;
    state = {
      limit: rpm,
      remaining: Math.max(0, Math.floor(tightest)),
      resetAtMs: nowMs + readings[i].fullMs,
      resetInMs: readings[i].fullMs,
    };
  }
  const known = tokenState ? { state, tokens: tokenState } : { state };
  if (admitted) return { ok: true, ...known };
  for (let i = 0; i < budgets.length; i++) {
    const { limits } = budgets[i];
    const budget = budgets[i];
    if (limits.rpm > 0 && readings[i].requests < 1)
      return refusal(known, { exceeded: 'requests', waitMs: readings[i].waitRequestMs, budget });
    if (limits.tpm > 0 && readings[i].tokens < tokenNeed(limits, tokens))
      return refusal(known, { exceeded: 'tokens', waitMs: readings[i].waitTokensMs, budget });
  }
  throw new Error('judgeBudgets: a refusal without a budget that refuses');
}

/** A refusal that says how long to wait: at least 1 s in whole seconds (Retry-After), at least 1 ms as measured. */
export function refusal(
  known: { state: RateState; tokens?: RateState },
  { exceeded, waitMs, budget }: { exceeded: 'requests' | 'tokens'; waitMs: number; budget: RateBudget },
): RateDecision {
  const retryAfterMs = Math.max(1, Math.ceil(waitMs));
  return {
    ...known,
    ok: false,
    exceeded,
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
    retryAfterMs,
    budget,
  };
}

/** A request larger than the whole token budget may run when the budget is full, or it could never run. */
export function tokenNeed(limits: RateLimits, tokens: number): number {
  return limits.tpm > 0 ? Math.min(tokens, limits.tpm) : 0;
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

interface Buckets {
  requests: Bucket;
  tokens: Bucket;
  touchedMs: number;
}

const IDLE_EVICT_MS = 5 * 60_000;

export class TokenBucketRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Buckets>();
  private lastSweepMs = 0;

  admit(budgets: readonly RateBudget[], tokens: number, nowMs: number): RateDecision {
    const held = budgets.map((budget) => this.bucketsFor(budget.bucket, budget.limits, nowMs));
    const before = budgets.map((budget, i) => reading(held[i], budget.limits, tokens));
    const fits = budgets.every(
      ({ limits }, i) =>
        !(limits.rpm > 0 && before[i].requests < 1) &&
        !(limits.tpm > 0 && before[i].tokens < tokenNeed(limits, tokens)),
    );
    if (!fits) return judgeBudgets(budgets, before, { admitted: false, tokens, nowMs });
    budgets.forEach(({ limits }, i) => {
      if (limits.rpm > 0) held[i].requests.level -= 1;
      if (limits.tpm > 0) held[i].tokens.level -= tokens;
    });
    return judgeBudgets(
      budgets,
      budgets.map((budget, i) => reading(held[i], budget.limits, tokens)),
      { admitted: true, tokens, nowMs },
    );
  }

  consumeTokens(budgets: readonly RateBudget[], tokens: number, nowMs: number): boolean {
    let within = true;
    for (const { bucket, limits } of budgets) {
      if (limits.tpm <= 0) continue;
      const held = this.bucketsFor(bucket, limits, nowMs);
      held.tokens.level -= tokens;
      if (held.tokens.level < 0) within = false;
    }
    return within;
  }

  private bucketsFor(bucket: string, limits: RateLimits, nowMs: number): Buckets {
    this.sweep(nowMs);
    let held = this.buckets.get(bucket);
    if (!held) {
      held = { requests: new Bucket(limits.rpm, nowMs), tokens: new Bucket(limits.tpm, nowMs), touchedMs: nowMs };
      this.buckets.set(bucket, held);
    }
    held.requests.refill(limits.rpm, nowMs);
    held.tokens.refill(limits.tpm, nowMs);
    held.touchedMs = nowMs;
    return held;
  }

  /** Buckets idle long enough are full again; dropping them bounds memory. */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < IDLE_EVICT_MS) return;
    this.lastSweepMs = nowMs;
    for (const [bucket, held] of this.buckets) if (nowMs - held.touchedMs > IDLE_EVICT_MS) this.buckets.delete(bucket);
  }
}

function reading(held: Buckets, limits: RateLimits, tokens: number): BudgetReading {
  return {
    requests: held.requests.level,
    tokens: held.tokens.level,
    waitRequestMs: limits.rpm > 0 ? held.requests.msUntil(1, limits.rpm) : 0,
    fullMs: limits.rpm > 0 ? held.requests.msUntil(limits.rpm, limits.rpm) : 0,
    waitTokensMs: limits.tpm > 0 ? held.tokens.msUntil(tokenNeed(limits, tokens), limits.tpm) : 0,
  };
}
