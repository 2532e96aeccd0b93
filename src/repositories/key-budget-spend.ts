import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import { utcDayParam } from '../db/utc-day.js';

// What limited keys spent in their current reset period: rows of budget_spend whose budget is the key's
// (src/billing/key-budget.ts), written by settle_generations and leased like every budget's.

/** A key's budget period: the key, its budget's id (`key:<organization>:<key id>`), and the start of the period. */
export interface KeyPeriod {
  keyId: string;
  budgetId: string;
  periodStart: Date;
}

/** Settled spend of these keys in the given periods (one period per key), by key id. */
export async function spentInPeriods(db: DbOrTrx, periods: readonly KeyPeriod[]): Promise<Map<string, bigint>> {
  const spent = new Map<string, bigint>();
  if (periods.length === 0) return spent;
  const byBudget = new Map(periods.map((p) => [p.budgetId, p]));
  // Each key's current period only: a key that resets daily has a row per day it was used.
  const rows = await db
    .selectFrom('budget_spend')
    .select(['budget_id', 'period_start', 'spent_nanos'])
    .where('budget_id', 'in', [...byBudget.keys()])
    .where('period_start', 'in', [...new Map(periods.map((p) => [p.periodStart.getTime(), p.periodStart])).values()])
    .execute();
  for (const row of rows) {
    const period = byBudget.get(row.budget_id);
    if (period !== undefined && period.periodStart.getTime() === row.period_start.getTime())
      spent.set(period.keyId, row.spent_nanos);
  }
  return spent;
}

/**
 * Starts a period's row at the spend the key's generations already recorded in it, when the row does not exist
 * yet: a limit set on a key that was used before counts that use (as OpenRouter's limits count the key's usage).
 * Periods start at UTC midnights, so the daily totals (migration 0012) answer it without reading the records.
 */
export async function seedKeySpend(db: DbOrTrx, input: KeyPeriod): Promise<void> {
  await sql`
    insert into budget_spend (budget_id, period_start, spent_nanos)
    select ${input.budgetId}, ${input.periodStart}, coalesce(sum(d.cost_nanos), 0)::bigint
    from usage_daily d where d.api_key_id = ${input.keyId} and d.day >= ${utcDayParam(input.periodStart)}
    on conflict (budget_id, period_start) do nothing`.execute(db);
}
