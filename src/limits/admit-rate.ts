// Step 4, first half: per-key rate limits (requests and tokens per minute) and the free-model daily allowance,
// answered with 429, Retry-After and X-RateLimit-* headers before anything is reserved or sent. The headers of an
// admitted request come back as data: the HTTP layer sends them with whatever answer follows.
import type { Principal } from '../auth/principal.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { Config } from '../config.js';
import { GatewayError } from '../core/gateway-error.js';
import type { FreeRequestAllowance, FreeRequestDecision } from './free-requests.js';
import type { RateDecision, RateLimiter, RateLimits } from './rate-limiter.js';

/** X-RateLimit-* of the key's request budget; none when the key has no request limit. */
export type RateHeaders = Readonly<Record<string, string>>;

const NO_HEADERS: RateHeaders = {};

type LimitSettings = Pick<Config, 'rateLimitRpm' | 'rateLimitTpm' | 'freeRequestsPerDay'>;

export function limitsFor(principal: Principal, config: Pick<Config, 'rateLimitRpm' | 'rateLimitTpm'>): RateLimits {
  return {
    rpm: principal.limits.rateLimitRpm ?? config.rateLimitRpm,
    tpm: principal.limits.rateLimitTpm ?? config.rateLimitTpm,
  };
}

/** What rate admission uses. */
export interface RateParts {
  limiter: RateLimiter;
  config: LimitSettings;
  now: () => Date;
  /** Counts refusals (Prometheus modelgate_rate_limited_total); absent in tests that do not look. */
  metrics?: { rateLimited(reason: 'requests_per_minute' | 'tokens_per_minute' | 'free_requests_per_day'): void };
}

export async function admitRate(
  parts: RateParts & { freeRequests: FreeRequestAllowance },
  principal: Principal,
  entry: CatalogEntry,
  estimatedTokens: number,
  /** The request's headers when it was already counted (the response cache's read): only the free allowance is left. */
  counted?: RateHeaders,
): Promise<RateHeaders> {
  const admitted = counted ?? admitRequestRate(parts, principal, estimatedTokens);
  const headers = admitted instanceof Promise ? await admitted : admitted;
  if (entry.accessMode === 'free') {
    const free = await takeFreeRequest(parts, principal, parts.now().getTime());
    if (!free.ok) throw withRateHeaders(freeLimitError(parts, free), headers);
  }
  return headers;
}

/**
 * One request (and `estimatedTokens`) from the key's per-minute budgets, or 429. Every call that reaches a model's
 * door counts, also one that generates nothing (POST /messages/count_tokens, with no tokens): the limit is on requests.
 */
export function admitRequestRate(parts: RateParts, principal: Principal, estimatedTokens: number): RateHeaders | Promise<RateHeaders> {
  const limits = limitsFor(principal, parts.config);
  const pending = parts.limiter.admit(principal.credentialId, limits, estimatedTokens, parts.now().getTime());
  // The in-process limiter answers synchronously: no extra turn of the event loop for it.
  return pending instanceof Promise ? pending.then((decision) => judge(parts, limits, decision)) : judge(parts, limits, pending);
}

function judge(parts: RateParts, limits: RateLimits, decision: RateDecision): RateHeaders {
  const headers = limits.rpm > 0
    ? { 'x-ratelimit-limit': String(decision.state.limit), 'x-ratelimit-remaining': String(decision.state.remaining), 'x-ratelimit-reset': String(decision.state.resetAtMs) }
    : NO_HEADERS;
  if (!decision.ok) {
    parts.metrics?.rateLimited(decision.exceeded === 'requests' ? 'requests_per_minute' : 'tokens_per_minute');
    const what = decision.exceeded === 'requests' ? `${limits.rpm} requests` : `${limits.tpm} tokens`;
    throw new GatewayError(429, `Rate limit exceeded: this key may use ${what} per minute; retry in ${decision.retryAfterSeconds} s`, {
      reason: 'rate_limit', limit: decision.exceeded === 'requests' ? 'requests_per_minute' : 'tokens_per_minute',
    }, { ...headers, 'retry-after': String(decision.retryAfterSeconds) });
  }
  return headers;
}

/**
 * A refusal after the rate step (free allowance, credits, quota) is sent with the key's rate headers too, as an
 * admitted request is; a header of the refusal's own (a quota's X-RateLimit-Reset) wins.
 */
export function withRateHeaders(err: unknown, headers: RateHeaders): unknown {
  if (err instanceof GatewayError) {
    for (const name of Object.keys(headers)) if (!(name in err.headers)) err.headers[name] = headers[name];
  }
  return err;
}

/** One request from the key's free-model daily allowance (routing decides what a refusal means for models[]). */
export function takeFreeRequest(
  parts: { freeRequests: FreeRequestAllowance; config: Pick<Config, 'freeRequestsPerDay'> },
  principal: Principal,
  nowMs: number,
): Promise<FreeRequestDecision> {
  const limit = principal.limits.freeRequestsPerDay ?? parts.config.freeRequestsPerDay;
  return parts.freeRequests.take(principal.credentialId, limit, nowMs);
}

export function freeLimitError(
  parts: { metrics?: { rateLimited(reason: 'free_requests_per_day'): void } },
  free: FreeRequestDecision,
): GatewayError {
  parts.metrics?.rateLimited('free_requests_per_day');
  return new GatewayError(429, `Free-model limit reached: this key may make ${free.limit} requests to free models per UTC day`, {
    reason: 'free_requests_per_day', limit: free.limit, used: free.used,
  }, { 'retry-after': String(free.retryAfterSeconds) });
}
