// `budget.threshold` webhooks from the budgets' settled spend. Budget leases tell of every settled cost in memory
// (BudgetLeases.onSpend); this turns each into the outbox's event when it crossed a subscribed fraction. Off the
// request path: the answer never waits for it, and a failure is logged, never thrown.
import type { BudgetSpend } from '../billing/budget-leases.js';
import { periodEnd } from '../billing/key-periods.js';
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import { emitBudgetThreshold } from './webhook-events.js';

/** The organization a budget pool belongs to: budget ids are `organization:<org>` or `<level>:<org>:<subject>`. */
function organizationOf(budgetId: string): string | undefined {
  const [, organizationId] = budgetId.split(':', 3);
  return organizationId || undefined;
}

/** What BudgetLeases.onSpend calls: each settled cost, checked against the organization's endpoints' fractions. */
export function budgetThresholdEvents(db: Db, logger: Logger): (spend: BudgetSpend) => void {
  return (spend) => {
    const organizationId = organizationOf(spend.budgetId);
    if (organizationId === undefined || spend.costNanos <= 0n) return;
    emitBudgetThreshold(db, {
      organizationId,
      level: spend.level,
      budgetId: spend.budgetId,
      limitNanos: spend.limitNanos,
      spentBeforeNanos: spend.spentNanos - spend.costNanos,
      spentAfterNanos: spend.spentNanos,
      resetsAt: periodEnd(spend.reset, spend.periodStart),
      now: new Date(),
    }).catch((err: unknown) => logger.error({ err, budget: spend.budgetId }, 'could not queue budget.threshold'));
  };
}
