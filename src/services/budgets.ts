// Budgets of an organization and of its members, shared by the member API, the operator API and the CLI: set, clear
// and read, with what the current period has spent. The owner (or the operator) sets the organization's budget;
// owners and admins set members' budgets; a member reads its own and the organization's.
import type { BudgetRule } from '../auth/principal.js';
import { requireManager, type OrganizationActor } from '../auth/member-roles.js';
import { budgetId, resetName } from '../billing/budget-admission.js';
import { periodEnd, periodStart } from '../billing/key-periods.js';
import { GatewayError } from '../core/gateway-error.js';
import { nanosToUsd, usdToNanos } from '../core/money.js';
import type { Db, DbOrTrx } from '../db/database.js';
import type { KeyLimitReset } from '../db/tables/api-keys.js';
import { findBudgetSpend } from '../repositories/budget-leases.js';
import { findMembership } from '../repositories/organizations.js';
import { inTransaction } from '../db/in-transaction.js';
import { recordAudit, type AuditActor } from './audit-log.js';
import { organizationNotFound, requireOrganization } from './organizations.js';

/** A budget as the API and the CLI write it. */
export interface WireBudget {
  limit_usd: number;
  reset?: string;
}

/** A budget as the API and the CLI read it: its rule and its current period. */
export interface BudgetView {
  limit_usd: number | null;
  reset: KeyLimitReset | 'never' | null;
  spent_usd: number;
  remaining_usd: number | null;
  period_start: string | null;
  resets_at: string | null;
}

const RESETS = ['daily', 'weekly', 'monthly', 'never'] as const;

/** The wire's budget as a rule; 400 naming the field when it is not one. */
export function parseBudget(wire: WireBudget): BudgetRule {
  const reset = wire.reset ?? 'never';
  if (!(RESETS as readonly string[]).includes(reset))
    throw new GatewayError(400, `Invalid request: reset must be one of ${RESETS.join(', ')}`, { field: 'reset' });
  if (typeof wire.limit_usd !== 'number' || !Number.isFinite(wire.limit_usd) || wire.limit_usd < 0)
    throw new GatewayError(400, 'Invalid request: limit_usd must be a non-negative number of USD', {
      field: 'limit_usd',
    });
  return { limitNanos: usdToNanos(wire.limit_usd), reset: reset === 'never' ? null : (reset as KeyLimitReset) };
}

/** Sets (or, with null, clears) the organization's budget: the owner's or the operator's; audited as `by`. */
export async function setOrganizationBudget(
  db: Db,
  actor: OrganizationActor,
  input: { organizationId: string; budget: BudgetRule | null; now: Date; by: AuditActor },
): Promise<BudgetView> {
  if (actor.kind === 'member' && actor.role !== 'owner')
    throw new GatewayError(403, "Setting the organization's budget needs the owner role in the organization", {
      reason: 'role_required',
      required_role: 'owner',
    });
  return inTransaction(db, async (trx) => {
    const org = await requireOrganization(trx, input.organizationId);
    await trx
      .updateTable('organizations')
      .set({ budget_limit_nanos: input.budget?.limitNanos ?? null, budget_reset: input.budget?.reset ?? null })
      .where('id', '=', org.id)
      .execute();
    await recordAudit(trx, {
      actor: input.by,
      organizationId: org.id,
      action: 'budget.changed',
      target: { type: 'organization_budget', id: org.id },
      before: auditedRule(ruleOf(org)),
      after: auditedRule(input.budget),
    });
    return viewOf(trx, { id: budgetId('organization', org.id), rule: input.budget, now: input.now });
  });
}

/** The organization's budget and its current period's spend. */
export async function organizationBudget(db: DbOrTrx, organizationId: string, now: Date): Promise<BudgetView> {
  const org = await requireOrganization(db, organizationId);
  return viewOf(db, { id: budgetId('organization', org.id), rule: ruleOf(org), now });
}

/** Sets (or clears) a member's budget: an owner's, an admin's or the operator's; audited as `by`. */
export async function setMemberBudget(
  db: Db,
  actor: OrganizationActor,
  input: { organizationId: string; userId: string; budget: BudgetRule | null; now: Date; by: AuditActor },
): Promise<BudgetView> {
  requireManager(actor, "Setting a member's budget");
  return inTransaction(db, async (trx) => {
    const membership = await requireMember(trx, input.organizationId, input.userId);
    await trx
      .updateTable('memberships')
      .set({ budget_limit_nanos: input.budget?.limitNanos ?? null, budget_reset: input.budget?.reset ?? null })
      .where('organization_id', '=', input.organizationId)
      .where('user_id', '=', input.userId)
      .execute();
    await recordAudit(trx, {
      actor: input.by,
      organizationId: input.organizationId,
      action: 'budget.changed',
      target: { type: 'member_budget', id: input.userId },
      before: auditedRule(ruleOf(membership)),
      after: auditedRule(input.budget),
    });
    return viewOf(trx, {
      id: budgetId('member', input.organizationId, input.userId),
      rule: input.budget,
      now: input.now,
    });
  });
}

function ruleOf(row: { budget_limit_nanos: bigint | null; budget_reset: KeyLimitReset | null }): BudgetRule | null {
  return row.budget_limit_nanos === null ? null : { limitNanos: row.budget_limit_nanos, reset: row.budget_reset };
}

function auditedRule(rule: BudgetRule | null): Record<string, unknown> {
  return rule === null
    ? { limit_usd: null, reset: null }
    : { limit_usd: nanosToUsd(rule.limitNanos), reset: resetName(rule.reset) };
}

/** A member's budget: a member reads only its own. */
export async function memberBudget(
  db: DbOrTrx,
  actor: OrganizationActor,
  input: { organizationId: string; userId: string; now: Date },
): Promise<BudgetView> {
  if (actor.kind === 'member' && actor.userId !== input.userId)
    requireManager(actor, "Reading another member's budget");
  const membership = await requireMember(db, input.organizationId, input.userId);
  return viewOf(db, {
    id: budgetId('member', input.organizationId, input.userId),
    rule: ruleOf(membership),
    now: input.now,
  });
}

async function requireMember(db: DbOrTrx, organizationId: string, userId: string) {
  if (organizationId.includes('\u0000') || userId.includes('\u0000')) throw organizationNotFound(organizationId);
  await requireOrganization(db, organizationId);
  const membership = await findMembership(db, organizationId, userId);
  if (!membership)
    throw new GatewayError(404, `User ${userId} is not a member of organization ${organizationId}`, {
      organization_id: organizationId,
      user_id: userId,
    });
  return membership;
}

async function viewOf(
  db: DbOrTrx,
  { id, rule, now }: { id: string; rule: BudgetRule | null; now: Date },
): Promise<BudgetView> {
  if (rule === null)
    return { limit_usd: null, reset: null, spent_usd: 0, remaining_usd: null, period_start: null, resets_at: null };
  const start = periodStart(rule.reset, now);
  const spent = await findBudgetSpend(db, { budgetId: id, periodStart: start });
  const left = rule.limitNanos - spent;
  return {
    limit_usd: nanosToUsd(rule.limitNanos),
    reset: resetName(rule.reset),
    spent_usd: nanosToUsd(spent),
    remaining_usd: nanosToUsd(left > 0n ? left : 0n),
    period_start: start.toISOString(),
    resets_at: periodEnd(rule.reset, now)?.toISOString() ?? null,
  };
}
