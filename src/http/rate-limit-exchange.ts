// The HTTP side of rate-limit headers: a model call's handler names the headers its door's clients read
// (formats/shared/rate-limit-headers.ts), and the key's rate state is written in them, on the answer and on a refusal
// (error-envelope.ts). Every 429 the gateway sends carries Retry-After in whole seconds, at least 1: the limit's own
// wait, the refusal's (free allowance, pass window), the upstream's for a relayed upstream 429, or, when nothing says
// how long, UNKNOWN_RETRY_AFTER_MS.
import type { Context } from 'koa';
import type { GatewayError } from '../core/gateway-error.js';
import type { RateReport } from '../core/rate-report.js';
import { OPENROUTER_RATE_LIMIT_HEADERS, type RateLimitHeaders } from '../formats/shared/rate-limit-headers.js';

/**
 * The wait a 429 asks for when nothing measured one (an upstream's 429 without Retry-After, a stream refused before
 * its first event): about the first backoff of the official SDKs, so their retries keep the pace they would take.
 */
export const UNKNOWN_RETRY_AFTER_MS = 1000;

/** The headers this request's answers tell its rate state in; a route that names none sends OpenRouter's alone. */
export function useRateLimitHeaders(ctx: Context, headers: RateLimitHeaders): void {
  ctx.state.rateLimitHeaders = headers;
}

function rateLimitHeadersOf(ctx: Context): RateLimitHeaders {
  return (ctx.state.rateLimitHeaders as RateLimitHeaders | undefined) ?? OPENROUTER_RATE_LIMIT_HEADERS;
}

/** Sets the key's rate state on the answer, in the door's headers. */
export function setRateHeaders(ctx: Context, report: RateReport): void {
  ctx.set(rateLimitHeadersOf(ctx).state(report));
}

/**
 * An error's response headers: the key's rate state it carries, then its own (a pass window's X-RateLimit-Reset wins),
 * and on a 429 Retry-After and what the door's clients read beside it.
 */
export function errorHeaders(ctx: Context, error: GatewayError): Record<string, string> {
  const door = rateLimitHeadersOf(ctx);
  const headers = { ...(error.rate ? door.state(error.rate) : {}), ...error.headers };
  if (error.status !== 429) return headers;
  const given = headers['retry-after'];
  // Whole seconds at least 1 (a Retry-After of 0 invites a tight retry loop); the rate limit's own wait is finer.
  const seconds = given !== undefined && /^\d+$/.test(given) ? Math.max(1, Number(given)) : undefined;
  const waitMs = error.rate?.retryAfterMs ?? (seconds !== undefined ? seconds * 1000 : UNKNOWN_RETRY_AFTER_MS);
  return { ...headers, 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))), ...door.retry(waitMs) };
}
