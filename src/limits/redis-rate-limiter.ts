// Per-key RPM/TPM shared by every instance through Redis (RATE_SCRIPT), with the same buckets and answers as
// TokenBucketRateLimiter. When Redis does not answer, this instance's own TokenBucketRateLimiter decides
// (fail-open with a per-instance limit: docs/operations.md "Redis").
import { TokenBucketRateLimiter, type RateDecision, type RateLimiter, type RateLimits } from './rate-limiter.js';
import type { RateReply, RedisLimitStore } from './redis-store.js';

/**
 * What this instance knows of a key's token bucket between round trips: consumeTokens runs per streamed chunk and
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

  async admit(key: string, limits: RateLimits, tokens: number, nowMs: number): Promise<RateDecision> {
    if (limits.rpm <= 0 && limits.tpm <= 0) return { ok: true, state: { limit: 0, remaining: 0, resetAtMs: nowMs } };
    const reply = await this.store.run('rate', (redis) => redis.mgRate(this.redisKey(key), limits.rpm, limits.tpm, tokens, 'admit'));
    if (reply === undefined) return this.fallback.admit(key, limits, tokens, nowMs);
    const [status, waitMs, remaining, fullMs, tokenLevel] = reply.map(Number) as RateReply;
    if (limits.tpm > 0) {
      const view = this.view(key, limits, nowMs);
      view.level = tokenLevel;
    }
    const state = limits.rpm > 0 ? { limit: limits.rpm, remaining: Math.max(0, remaining), resetAtMs: nowMs + fullMs } : { limit: 0, remaining: 0, resetAtMs: nowMs };
    if (status === 1) return { ok: true, state };
    return { ok: false, state, exceeded: status === 2 ? 'requests' : 'tokens', retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  consumeTokens(key: string, limits: RateLimits, tokens: number, nowMs: number): boolean {
    if (limits.tpm <= 0) return true;
    if (this.store.isDown) return this.fallback.consumeTokens(key, limits, tokens, nowMs);
    const view = this.view(key, limits, nowMs);
    view.unsent += tokens;
    if (!view.flushing) {
      view.flushing = true;
      setImmediate(() => void this.flush(key, view));
    }
    return view.level === undefined || view.level - view.unsent - view.inFlight >= 0;
  }

  private async flush(key: string, view: TokenView): Promise<void> {
    while (view.unsent > 0) {
      const amount = view.unsent;
      view.unsent = 0;
      view.inFlight += amount;
      const { rpm, tpm } = view.limits;
      const reply = await this.store.run('rate', (redis) => redis.mgRate(this.redisKey(key), rpm, tpm, amount, 'consume'));
      view.inFlight -= amount;
      if (reply === undefined) this.fallback.consumeTokens(key, view.limits, amount, Date.now());
      else view.level = Number(reply[4]);
    }
    view.flushing = false;
  }

  private view(key: string, limits: RateLimits, nowMs: number): TokenView {
    this.sweep(nowMs);
    let view = this.views.get(key);
    if (!view) {
      view = { unsent: 0, inFlight: 0, limits, flushing: false, touchedMs: nowMs };
      this.views.set(key, view);
    }
    view.limits = limits;
    view.touchedMs = nowMs;
    return view;
  }

  /** Views of keys idle long enough are worth nothing (their buckets have refilled); dropping them bounds memory. */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < VIEW_IDLE_MS) return;
    this.lastSweepMs = nowMs;
    for (const [key, view] of this.views) if (!view.flushing && nowMs - view.touchedMs > VIEW_IDLE_MS) this.views.delete(key);
  }

  private redisKey(key: string): string {
    return `${this.store.prefix}rate:${key}`;
  }
}
