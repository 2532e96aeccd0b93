// A key's USD limit (`limit` and `limit_reset` on the key) is a budget of level `key`: a pool of its current period
// (budget_spend, id `key:<organization>:<key id>`) admitted in memory against this process's lease of it, as the
// organization's, member's and session's budgets are (budget-leases.ts). It is held before the credits, so a request
// beyond its key's limit is refused before it touches its organization's balance, and its 402 says
// `key_limit_exceeded` with the key's limit, spend and reset.
import type { Principal } from '../auth/principal.js';
import { GatewayError } from '../core/gateway-error.js';
import { nanosToUsd } from '../core/money.js';
import type { BudgetLeases, BudgetPool, BudgetPoolHold } from './budget-leases.js';
import { periodEnd, periodStart } from './key-periods.js';

/** A key budget's pool id: budget_spend.budget_id. */
export function keyBudgetId(organizationId: string, keyId: string): string {
  return `key:${organizationId}:${keyId}`;
}

/** Only an API key with a USD limit holds anything against it (a session or management principal has none). */
export function hasKeyLimit(principal: Principal): boolean {
  return principal.kind === 'api_key' && principal.limits.creditLimitNanos !== null;
}

/** The key's pool in the period `now` falls in (the principal must have a key limit). */
export function keyPool(principal: Principal, now: Date): BudgetPool {
  const reset = principal.limits.limitReset ?? null;
  return {
    level: 'key',
    budgetId: keyBudgetId(principal.organizationId, principal.credentialId),
    periodStart: periodStart(reset, now),
    limitNanos: principal.limits.creditLimitNanos ?? 0n,
    reset,
  };
}

/**
 * Holds `amountNanos` of the key's limit in this period, or throws 402 `key_limit_exceeded`. Only credits count
 * toward a key's limit: pass requests use the subscription's windows.
 */
export async function reserveKeyBudget(
  budgets: BudgetLeases,
  input: { principal: Principal; amountNanos: bigint; now: Date },
): Promise<BudgetPoolHold> {
  const { principal, amountNanos, now } = input;
  const pool = keyPool(principal, now);
  const reserved = await budgets.reserve([pool], amountNanos);
  if (reserved.ok) return reserved.holds[0];
  // What others lease counts as held (requests in flight there, or soon); this process's own unused lease does not.
  const left = pool.limitNanos - reserved.spentNanos - reserved.leasedNanos + reserved.freeNanos;
  throw keyLimitExceeded(principal, { pool, spentNanos: reserved.spentNanos, leftNanos: left, amountNanos }, now);
}

function keyLimitExceeded(
  principal: Principal,
  input: { pool: BudgetPool; spentNanos: bigint; leftNanos: bigint; amountNanos: bigint },
  now: Date,
): GatewayError {
  const { pool, spentNanos, amountNanos } = input;
  const limit = pool.limitNanos;
  const remaining = input.leftNanos > 0n ? input.leftNanos : 0n;
  const resetsAt = periodEnd(pool.reset, now)?.toISOString() ?? null;
  return new GatewayError(
    402,
    `Key limit exceeded: this request may cost up to ${nanosToUsd(amountNanos)} USD and ${nanosToUsd(remaining)} USD of this key's ${nanosToUsd(limit)} USD limit is left` +
      (resetsAt ? ` (it resets at ${resetsAt})` : ' (it does not reset)') +
      ". Raise the key's limit or lower max_tokens.",
    {
      reason: 'key_limit_exceeded',
      budget: 'key',
      key_id: principal.credentialId,
      limit: nanosToUsd(limit),
      limit_remaining: nanosToUsd(remaining),
      required: nanosToUsd(amountNanos),
      limit_reset: pool.reset,
      reset: pool.reset ?? 'never',
      spent: nanosToUsd(spentNanos),
      resets_at: resetsAt,
      currency: 'USD',
    },
  );
}
