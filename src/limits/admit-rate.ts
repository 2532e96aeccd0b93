// Step 4, first half: rate limits (requests and tokens per minute) and the free-model daily allowance, answered with
// 429 and Retry-After before anything is reserved or sent. Both are counted per account (the gateway's settings), so
// that more keys do not mean more requests, and per key where the key has a limit of its own (which can only tighten
// the account's). Accounts are keyed by the id that owns the key, which is what an organization's id will be. The
// key's rate state comes back as data (RateReport), with an admitted request and with a refusal: each door renders it
// as the headers its clients read (formats/shared/rate-limit-headers.ts).
import { isApiKeyRow, type Principal } from '../auth/principal.js';
import type { Config } from '../config.js';
import { GatewayError } from '../core/gateway-error.js';
import type { RateReport } from '../core/rate-report.js';
import type { FreeRequestAllowance, FreeRequestDecision } from './free-requests.js';
import type { RateBudget, RateDecision, RateLimiter } from './rate-limiter.js';

type LimitSettings = Pick<Config, 'rateLimitRpm' | 'rateLimitTpm' | 'freeRequestsPerDay'>;

type RateSettings = Pick<Config, 'rateLimitRpm' | 'rateLimitTpm'>;

/** Per principal (shared between its requests, never changed), so a stream's per-chunk token count builds nothing. */
const budgetsOf = new WeakMap<Principal, { config: RateSettings; budgets: readonly RateBudget[] }>();

/**
 * The budgets a request takes from: its key's own (when the key has a request or token limit) and its account's
 * (the gateway's MODELGATE_RATE_LIMIT_RPM and _TPM, shared by all the account's keys and its token). The key's
 * comes first: when both are spent, the refusal names the limit the key was given.
 */
export function rateBudgetsOf(principal: Principal, config: RateSettings): readonly RateBudget[] {
  const known = budgetsOf.get(principal);
  if (known?.config === config) return known.budgets;
  const account: RateBudget = {
    scope: 'account',
    bucket: `{${principal.organizationId}}`,
    limits: { rpm: config.rateLimitRpm, tpm: config.rateLimitTpm },
  };
  const { rateLimitRpm, rateLimitTpm } = principal.limits;
  const own = { rpm: Math.max(0, rateLimitRpm ?? 0), tpm: Math.max(0, rateLimitTpm ?? 0) };
  const budgets =
    own.rpm > 0 || own.tpm > 0
      ? [
          { scope: 'key' as const, bucket: `{${principal.organizationId}}:${principal.credentialId}`, limits: own },
          account,
        ]
      : [account];
  budgetsOf.set(principal, { config, budgets });
  return budgets;
}

/** What applies to a key: its own limit where it is tighter than its account's (0 = unlimited), as GET /key reports. */
export function effectiveLimit(own: number | null, account: number): number {
  if (own === null || own <= 0) return account;
  return account <= 0 ? own : Math.min(own, account);
}

/** What rate admission uses. */
export interface RateParts {
  limiter: RateLimiter;
  config: LimitSettings;
  now: () => Date;
  /** Counts refusals (Prometheus modelgate_rate_limited_total); absent in tests that do not look. */
  metrics?: { rateLimited(reason: 'requests_per_minute' | 'tokens_per_minute' | 'free_requests_per_day'): void };
}

/**
 * One request (and `estimatedTokens`) from the per-minute budgets of the key and its account, or 429. Every call that
 * reaches a model's door counts, also one that generates nothing (POST /messages/count_tokens, with no tokens): the
 * limit is on requests.
 */
export function admitRequestRate(
  parts: RateParts,
  principal: Principal,
  estimatedTokens: number,
): RateReport | Promise<RateReport> {
  const pending = parts.limiter.admit(rateBudgetsOf(principal, parts.config), estimatedTokens, parts.now().getTime());
  // The in-process limiter answers synchronously: no extra turn of the event loop for it.
  return pending instanceof Promise ? pending.then((decision) => judge(parts, decision)) : judge(parts, pending);
}

function judge(parts: RateParts, decision: RateDecision): RateReport {
  const report: RateReport = {
    ...(decision.state.limit > 0 ? { requests: decision.state } : {}),
    ...(decision.tokens ? { tokens: decision.tokens } : {}),
  };
  if (!decision.ok) {
    parts.metrics?.rateLimited(decision.exceeded === 'requests' ? 'requests_per_minute' : 'tokens_per_minute');
    const { scope, limits } = decision.budget;
    const what = decision.exceeded === 'requests' ? `${limits.rpm} requests` : `${limits.tpm} tokens`;
    const who = scope === 'key' ? 'this key may use' : "this key's account may use";
    const across = scope === 'key' ? '' : ' across all its keys';
    const refused = new GatewayError(
      429,
      `Rate limit exceeded: ${who} ${what} per minute${across}; retry in ${decision.retryAfterSeconds} s`,
      {
        reason: 'rate_limit',
        limit: decision.exceeded === 'requests' ? 'requests_per_minute' : 'tokens_per_minute',
        scope,
      },
      { 'retry-after': String(decision.retryAfterSeconds) },
    );
    throw withRateReport(refused, { ...report, retryAfterMs: decision.retryAfterMs });
  }
  return report;
}

/**
 * A refusal after the rate step (free allowance, credits, quota) carries the key's rate state too, as an admitted
 * request does; a header of the refusal's own (a quota's X-RateLimit-Reset) wins over its rendering.
 */
export function withRateReport(err: unknown, report: RateReport): unknown {
  if (err instanceof GatewayError && err.rate === undefined) err.rate = report;
  return err;
}

/**
 * One request from the free-model daily allowance of the account (MODELGATE_FREE_REQUESTS_PER_DAY, shared by all its
 * keys) and of the key, when it has a tighter one of its own. Routing decides what a refusal means for models[].
 */
export function takeFreeRequest(
  parts: { freeRequests: FreeRequestAllowance; config: Pick<Config, 'freeRequestsPerDay'> },
  principal: Principal,
  nowMs: number,
): Promise<FreeRequestDecision> {
  const keyId = isApiKeyRow(principal) ? principal.credentialId : undefined;
  const keyLimit = principal.limits.freeRequestsPerDay ?? 0;
  return parts.freeRequests.take(
    { accountId: principal.organizationId, accountLimit: parts.config.freeRequestsPerDay, keyId, keyLimit },
    nowMs,
  );
}

export function freeLimitError(
  parts: { metrics?: { rateLimited(reason: 'free_requests_per_day'): void } },
  free: FreeRequestDecision,
): GatewayError {
  parts.metrics?.rateLimited('free_requests_per_day');
  const who = free.scope === 'key' ? 'this key may make' : "this key's account may make";
  const across = free.scope === 'key' ? '' : ', across all its keys';
  return new GatewayError(
    429,
    `Free-model limit reached: ${who} ${free.limit} requests to free models per UTC day${across}`,
    {
      reason: 'free_requests_per_day',
      limit: free.limit,
      used: free.used,
      scope: free.scope,
    },
    { 'retry-after': String(free.retryAfterSeconds) },
  );
}
