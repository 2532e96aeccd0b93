// Budgets in admission: a request that spends credits must fit in every budget above it (the organization's, its
// member's, the session's; the key's own limit is held by reserveCreditsFor) for the same upper bound credits
// reserve. Each budget is a pool of its current period (UTC calendar), admitted in memory against this process's
// lease of it (budget-leases.ts). A refusal is a 402 naming the budget, its limit, spend and reset.
import type { BudgetRule, Principal } from '../auth/principal.js';
import type { KeyLimitReset } from '../db/tables/api-keys.js';
import { GatewayError } from '../core/gateway-error.js';
import { nanosToUsd } from '../core/money.js';
import type { Db } from '../db/database.js';
import { createLogger } from '../logger.js';
import { BudgetLeases, type BudgetLevel, type BudgetPool, type BudgetPoolHold } from './budget-leases.js';
import { NEVER_RESETS, periodEnd, periodStart } from './key-periods.js';
import type { KnownSession } from './session-book.js';

/** The session a request names (its door's session key) and the budget its header gives, if any. */
export interface SessionAsk {
  key: string;
  budgetNanos?: bigint;
}

/** What a request holds of its budgets, and what its answer's headers say. */
export interface BudgetHolds {
  holds: BudgetPoolHold[];
  /** The session the request belongs to (settlement adds its cost, tokens and time). */
  session?: KnownSession;
  /** The tightest remainder known after this request's hold (x-modelgate-budget-remaining). */
  remainingNanos?: bigint;
}

/** A budget's pool id: budget_spend.budget_id. */
export function budgetId(level: Exclude<BudgetLevel, 'key'>, organizationId: string, subject = ''): string {
  return level === 'organization' ? `organization:${organizationId}` : `${level}:${organizationId}:${subject}`;
}

const fallbacks = new WeakMap<Db, BudgetLeases>();

/** A process without credit leases (tools, tests of one path) holds each request's budgets on the period rows. */
export function directBudgets(db: Db): BudgetLeases {
  let budgets = fallbacks.get(db);
  if (budgets === undefined) {
    // Direct holds start no extension in the background, so nothing is logged.
    budgets = new BudgetLeases(db, createLogger('silent'), {
      ttlSeconds: 60,
      idleReleaseMs: 0,
      extensionMultiple: 1n,
      maxExtensionMultiple: 1n,
    });
    fallbacks.set(db, budgets);
  }
  return budgets;
}

/**
 * Holds `amountNanos` (0: nothing is spent, only the session is looked up) in every budget of the principal and its
 * session, or throws the 402 of the first that cannot cover it.
 */
export async function admitBudgets(
  budgets: BudgetLeases,
  input: { principal: Principal; session?: SessionAsk; amountNanos: bigint; now: Date },
): Promise<BudgetHolds | undefined> {
  const { principal, amountNanos, now } = input;
  const session =
    input.session === undefined || principal.organizationId === ''
      ? undefined
      : await budgets.sessions.open(principal.organizationId, input.session.key, input.session.budgetNanos);
  const pools = amountNanos > 0n ? poolsOf(principal, session, now) : [];
  if (pools.length === 0) return session === undefined ? undefined : { holds: [], session };
  const reserved = await budgets.reserve(pools, amountNanos);
  if (!reserved.ok) throw budgetExceeded(reserved.pool, { spentNanos: reserved.spentNanos, amountNanos }, now);
  let remainingNanos = reserved.holds[0].remainingNanos;
  for (const hold of reserved.holds) if (hold.remainingNanos < remainingNanos) remainingNanos = hold.remainingNanos;
  return { holds: reserved.holds, session, remainingNanos };
}

/** Budget pools in the order a refusal names them: organization, member, session. */
function poolsOf(principal: Principal, session: KnownSession | undefined, now: Date): BudgetPool[] {
  const pools: BudgetPool[] = [];
  const org = principal.organizationId;
  const rules = principal.budgets;
  if (rules?.organization)
    pools.push(poolOf({ level: 'organization', budgetId: budgetId('organization', org) }, rules.organization, now));
  if (rules?.member)
    pools.push(
      poolOf({ level: 'member', budgetId: budgetId('member', org, principal.memberUserId) }, rules.member, now),
    );
  if (session?.budgetNanos != null)
    pools.push({
      level: 'session',
      budgetId: budgetId('session', org, session.hash),
      periodStart: NEVER_RESETS,
      limitNanos: session.budgetNanos,
      reset: null,
    });
  return pools;
}

function poolOf(subject: { level: BudgetLevel; budgetId: string }, rule: BudgetRule, now: Date): BudgetPool {
  return {
    ...subject,
    periodStart: periodStart(rule.reset, now),
    limitNanos: rule.limitNanos,
    reset: rule.reset,
  };
}

/** The 402 of a budget that cannot cover a request (the key's own is reserveCreditsFor's, with the same fields). */
export function budgetExceeded(
  pool: BudgetPool,
  { spentNanos, amountNanos }: { spentNanos: bigint; amountNanos: bigint },
  now: Date,
): GatewayError {
  const left = pool.limitNanos - spentNanos;
  const resetsAt = periodEnd(pool.reset, now)?.toISOString() ?? null;
  return new GatewayError(
    402,
    `Budget exceeded: this request may cost up to ${nanosToUsd(amountNanos)} USD and the ${pool.level} budget of ` +
      `${nanosToUsd(pool.limitNanos)} USD has ${nanosToUsd(left > 0n ? left : 0n)} USD left` +
      (resetsAt ? ` (it resets at ${resetsAt})` : ' (it does not reset)') +
      '. Raise the budget or lower max_tokens.',
    {
      reason: 'budget_exceeded',
      budget: pool.level,
      limit: nanosToUsd(pool.limitNanos),
      spent: nanosToUsd(spentNanos),
      required: nanosToUsd(amountNanos),
      reset: resetName(pool.reset),
      resets_at: resetsAt,
      currency: 'USD',
    },
  );
}

/** A reset as the API names it. */
export function resetName(reset: KeyLimitReset | null): KeyLimitReset | 'never' {
  return reset ?? 'never';
}

/**
 * The answer's spend headers, as data for the edge: `x-modelgate-budget-remaining` (the tightest budget's remainder
 * after the request's hold, absent without a budget) and `x-modelgate-spend-session` (the session's spend when the
 * request was admitted, absent without a session). Both are the values at admission.
 */
export function budgetHeaders(budgets: BudgetHolds | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (budgets?.remainingNanos !== undefined)
    headers['x-modelgate-budget-remaining'] = usdHeader(budgets.remainingNanos);
  if (budgets?.session) headers['x-modelgate-spend-session'] = usdHeader(budgets.session.spentNanos);
  return headers;
}

/** USD as a header value: never negative (a spend past its budget has nothing left). */
function usdHeader(nanos: bigint): string {
  return String(nanosToUsd(nanos > 0n ? nanos : 0n));
}
