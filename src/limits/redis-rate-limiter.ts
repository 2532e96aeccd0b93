// RPM/TPM budgets shared by every instance through Redis (RATE_SCRIPT), with the same buckets and answers as
// TokenBucketRateLimiter: one script call takes a request from all of its budgets (the account's, and the key's
// own) or from none. When Redis does not answer, this instance's own TokenBucketRateLimiter decides (fail-open with
// a per-instance limit: docs/operations.md "Redis").
import {
  judgeBudgets,
  refusal,
  TokenBucketRateLimiter,
  type BudgetReading,
  type RateBudget,
  type RateDecision,
  type RateLimiter,
  type RateLimits,
} from './rate-limiter.js';
import type { RedisLimitStore } from './redis-store.js';

/**
 * What this instance knows of a budget's token bucket between round trips: consumeTokens runs per streamed chunk and
 * must answer at once, so it answers from the level Redis last reported, less what was counted since, and sends
 * the counted tokens in one script call per event-loop turn.
 */
interface TokenView {
  /** Token level in Redis's last answer; undefined until one arrived. */
  level?: number;
  /** Counted here, not yet sent. */
  unsent: number;
  /** Sent, not yet answered. */
  inFlight: number;
  limits: RateLimits;
  flushing: boolean;
  touchedMs: number;
}

const VIEW_IDLE_MS = 2 * 60_000;

export class RedisRateLimiter implements RateLimiter {
  private fallback = new TokenBucketRateLimiter();
  private readonly views = new Map<string, TokenView>();
  private lastSweepMs = 0;

  constructor(private readonly store: RedisLimitStore) {
    // The fallback's buckets describe the outage; after it Redis is the truth again.
    store.onRecover(() => (this.fallback = new TokenBucketRateLimiter()));
  }

  async admit(budgets: readonly RateBudget[], tokens: number, nowMs: number): Promise<RateDecision> {
    const limited = budgets.filter(({ limits }) => limits.rpm > 0 || limits.tpm > 0);
    if (limited.length === 0) return { ok: true, state: { limit: 0, remaining: 0, resetAtMs: nowMs, resetInMs: 0 } };
    const args: (string | number)[] = limited.map((budget) => this.redisKey(budget.bucket));
    args.push(tokens, 'admit');
    for (const { limits } of limited) args.push(limits.rpm, limits.tpm);
    const reply = await this.store.run('rate', (redis) => redis.mgRate(limited.length, ...args));
    if (reply === undefined) return this.fallback.admit(budgets, tokens, nowMs);
    const [status, waitMs, refused] = [Number(reply[0]), Number(reply[1]), Number(reply[2])];
    const readings: BudgetReading[] = limited.map((budget, i) => {
      const [requests, fullMs, tokenLevel] = [
        Number(reply[3 + 3 * i]),
        Number(reply[4 + 3 * i]),
        Number(reply[5 + 3 * i]),
      ];
      if (budget.limits.tpm > 0) this.view(budget.bucket, budget.limits, nowMs).level = tokenLevel;
      return { requests, tokens: tokenLevel, fullMs, waitRequestMs: 0, waitTokensMs: 0 };
    });
    const decision = judgeBudgets(limited, readings, { admitted: true, tokens, nowMs });
    if (status === 1) return decision;
    return refusal(decision, {
      exceeded: status === 2 ? 'requests' : 'tokens',
      waitMs,
      budget: limited[refused - 1],
    });
  }

  consumeTokens(budgets: readonly RateBudget[], tokens: number, nowMs: number): boolean {
    if (this.store.isDown) return this.fallback.consumeTokens(budgets, tokens, nowMs);
    let within = true;
    for (const { bucket, limits } of budgets) {
      if (limits.tpm <= 0) continue;
      const view = this.view(bucket, limits, nowMs);
      view.unsent += tokens;
      if (!view.flushing) {
        view.flushing = true;
        setImmediate(() => void this.flush(bucket, view));
      }
      if (view.level !== undefined && view.level - view.unsent - view.inFlight < 0) within = false;
    }
    return within;
  }

  private async flush(bucket: string, view: TokenView): Promise<void> {
    while (view.unsent > 0) {
      const amount = view.unsent;
      view.unsent = 0;
      view.inFlight += amount;
      const { rpm, tpm } = view.limits;
      const reply = await this.store.run('rate', (redis) =>
        redis.mgRate(1, this.redisKey(bucket), amount, 'consume', rpm, tpm),
      );
      view.inFlight -= amount;
      if (reply === undefined)
        this.fallback.consumeTokens([{ scope: 'key', bucket, limits: view.limits }], amount, Date.now());
      else view.level = Number(reply[5]);
    }
    view.flushing = false;
  }

  private view(bucket: string, limits: RateLimits, nowMs: number): TokenView {
    this.sweep(nowMs);
    let view = this.views.get(bucket);
    if (!view) {
      view = { unsent: 0, inFlight: 0, limits, flushing: false, touchedMs: nowMs };
      this.views.set(bucket, view);
    }
    view.limits = limits;
    view.touchedMs = nowMs;
    return view;
  }

  /** Views of budgets idle long enough are worth nothing (their buckets have refilled); dropping them bounds memory. */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < VIEW_IDLE_MS) return;
    this.lastSweepMs = nowMs;
    for (const [bucket, view] of this.views)
      if (!view.flushing && nowMs - view.touchedMs > VIEW_IDLE_MS) this.views.delete(bucket);
  }

  private redisKey(bucket: string): string {
    return `${this.store.prefix}rate:${bucket}`;
  }
}
