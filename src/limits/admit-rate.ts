// Step 4, first half: per-key rate limits (requests and tokens per minute) and the free-model daily allowance,
// answered with 429, Retry-After and X-RateLimit-* headers before anything is reserved or sent.
import type { Context } from 'koa';
import type { Principal } from '../auth/principal.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { Config } from '../config.js';
import { GatewayError } from '../core/gateway-error.js';
import type { FreeRequestAllowance, FreeRequestDecision } from './free-requests.js';
import type { RateDecision, RateLimiter, RateLimits } from './rate-limiter.js';

export function limitsFor(principal: Principal, config: Config): RateLimits {
  return {
    rpm: principal.limits.rateLimitRpm ?? config.rateLimitRpm,
    tpm: principal.limits.rateLimitTpm ?? config.rateLimitTpm,
  };
}

export async function admitRate(
  input: RateInput & { freeRequests: FreeRequestAllowance },
  ctx: Context,
  principal: Principal,
  entry: CatalogEntry,
  estimatedTokens: number,
): Promise<void> {
  const admitted = admitRequestRate(input, ctx, principal, estimatedTokens);
  if (admitted !== undefined) await admitted;
  if (entry.accessMode === 'free') {
    const free = await takeFreeRequest(input, principal, input.now().getTime());
    if (!free.ok) throw freeLimitError(input, free);
  }
}

type RateInput = {
  limiter: RateLimiter; config: Config; now: () => Date;
  /** Counts refusals (Prometheus modelgate_rate_limited_total); absent in tests that do not look. */
  metrics?: { rateLimited(reason: 'requests_per_minute' | 'tokens_per_minute' | 'free_requests_per_day'): void };
};

/**
 * One request (and `estimatedTokens`) from the key's per-minute budgets, or 429. Every call that reaches a model's
 * door counts, also one that generates nothing (POST /messages/count_tokens, with no tokens): the limit is on requests.
 */
export function admitRequestRate(input: RateInput, ctx: Context, principal: Principal, estimatedTokens: number): void | Promise<void> {
  const limits = limitsFor(principal, input.config);
  const pending = input.limiter.admit(principal.credentialId, limits, estimatedTokens, input.now().getTime());
  // The in-process limiter answers synchronously: no extra turn of the event loop for it.
  return pending instanceof Promise ? pending.then((decision) => judge(input, ctx, limits, decision)) : judge(input, ctx, limits, pending);
}

function judge(input: RateInput, ctx: Context, limits: RateLimits, decision: RateDecision): void {
  if (limits.rpm > 0) {
    ctx.set('x-ratelimit-limit', String(decision.state.limit));
    ctx.set('x-ratelimit-remaining', String(decision.state.remaining));
    ctx.set('x-ratelimit-reset', String(decision.state.resetAtMs));
  }
  if (!decision.ok) {
    input.metrics?.rateLimited(decision.exceeded === 'requests' ? 'requests_per_minute' : 'tokens_per_minute');
    const what = decision.exceeded === 'requests' ? `${limits.rpm} requests` : `${limits.tpm} tokens`;
    throw new GatewayError(429, `Rate limit exceeded: this key may use ${what} per minute; retry in ${decision.retryAfterSeconds} s`, {
      reason: 'rate_limit', limit: decision.exceeded === 'requests' ? 'requests_per_minute' : 'tokens_per_minute',
    }, { 'retry-after': String(decision.retryAfterSeconds) });
  }
}

/** One request from the key's free-model daily allowance (routing decides what a refusal means for models[]). */
export function takeFreeRequest(
  input: { freeRequests: FreeRequestAllowance; config: Config },
  principal: Principal,
  nowMs: number,
): Promise<FreeRequestDecision> {
  const limit = principal.limits.freeRequestsPerDay ?? input.config.freeRequestsPerDay;
  return input.freeRequests.take(principal.credentialId, limit, nowMs);
}

export function freeLimitError(
  input: { metrics?: { rateLimited(reason: 'free_requests_per_day'): void } },
  free: FreeRequestDecision,
): GatewayError {
  input.metrics?.rateLimited('free_requests_per_day');
  return new GatewayError(429, `Free-model limit reached: this key may make ${free.limit} requests to free models per UTC day`, {
    reason: 'free_requests_per_day', limit: free.limit, used: free.used,
  }, { 'retry-after': String(free.retryAfterSeconds) });
}
