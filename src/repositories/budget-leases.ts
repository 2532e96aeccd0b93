import { sql } from 'kysely';
import { maxBigInt, minBigInt } from '../core/bigint-min-max.js';
import type { DbOrTrx } from '../db/database.js';
import { inTransaction } from '../db/in-transaction.js';

// Budget periods and the leases gateway processes hold of them (migration 0016). Invariant kept by every function
// here: a lease grows only while spent + leased + grant <= the budget's limit, so the upper bounds of the requests in
// flight (each held inside a lease) never together pass it, whatever the number of instances. settle_generations
// adds each request's whole cost to the period's spend and takes it off the holder's lease. Lock order: budget_spend
// rows (by budget, period), then budget_leases rows.

/** A budget period: which budget, which reset period. */
export interface BudgetPeriod {
  budgetId: string;
  periodStart: Date;
}

export type ExtendBudgetResult =
  | { ok: true; grantedNanos: bigint; spentNanos: bigint; leasedNanos: bigint }
  | { ok: false; spentNanos: bigint; leasedNanos: bigint };

/**
 * Leases between `minNanos` and `wantNanos` more of the period's remainder under `limitNanos` to `holder` (at most
 * half the remainder unless the request alone needs more), or refuses when not even `minNanos` is left. Without a
 * holder the amount is held for one request only (settlement then releases it from the period row itself).
 */
export async function extendBudgetLease(
  db: DbOrTrx,
  input: BudgetPeriod & { holder?: string; limitNanos: bigint; minNanos: bigint; wantNanos: bigint },
): Promise<ExtendBudgetResult> {
  const { budgetId, periodStart, holder, limitNanos, minNanos } = input;
  return inTransaction(db, async (trx) => {
    // The upsert locks the period's row, also when it is new.
    const row = await trx
      .insertInto('budget_spend')
      .values({ budget_id: budgetId, period_start: periodStart })
      .onConflict((oc) =>
        oc
          .columns(['budget_id', 'period_start'])
          .doUpdateSet((eb) => ({ spent_nanos: eb.ref('budget_spend.spent_nanos') })),
      )
      .returning(['spent_nanos', 'leased_nanos'])
      .executeTakeFirstOrThrow();
    const spentNanos = row.spent_nanos;
    const leasedNanos = row.leased_nanos;
    const available = limitNanos - spentNanos - leasedNanos;
    if (available < minNanos) return { ok: false, spentNanos, leasedNanos };
    const granted = minBigInt(available, maxBigInt(minBigInt(input.wantNanos, available / 2n), minNanos));
    await trx
      .updateTable('budget_spend')
      .set((eb) => ({ leased_nanos: eb('leased_nanos', '+', granted) }))
      .where('budget_id', '=', budgetId)
      .where('period_start', '=', periodStart)
      .execute();
    if (holder !== undefined) {
      await trx
        .insertInto('budget_leases')
        .values({ budget_id: budgetId, period_start: periodStart, holder, amount_nanos: granted })
        .onConflict((oc) =>
          oc.columns(['budget_id', 'period_start', 'holder']).doUpdateSet((eb) => ({
            amount_nanos: eb('budget_leases.amount_nanos', '+', eb.ref('excluded.amount_nanos')),
            renewed_at: sql<Date>`now()`,
          })),
        )
        .execute();
    }
    return { ok: true, grantedNanos: granted, spentNanos, leasedNanos: leasedNanos + granted };
  });
}

/**
 * Gives up to `amountNanos` of a lease back to its period (without a holder: a one-request hold, released from the
 * period row). Returns what was given back.
 */
export async function shrinkBudgetLease(
  db: DbOrTrx,
  input: BudgetPeriod & { holder?: string; amountNanos: bigint },
): Promise<bigint> {
  const { budgetId, periodStart, holder, amountNanos } = input;
  if (amountNanos <= 0n) return 0n;
  return inTransaction(db, async (trx) => {
    await lockPeriods(trx, [input]);
    let given = amountNanos;
    if (holder !== undefined) {
      const lease = await trx
        .selectFrom('budget_leases')
        .select('amount_nanos')
        .where('budget_id', '=', budgetId)
        .where('period_start', '=', periodStart)
        .where('holder', '=', holder)
        .forUpdate()
        .executeTakeFirst();
      if (lease === undefined) return 0n;
      given = minBigInt(amountNanos, lease.amount_nanos);
      await trx
        .updateTable('budget_leases')
        .set((eb) => ({ amount_nanos: eb('amount_nanos', '-', given) }))
        .where('budget_id', '=', budgetId)
        .where('period_start', '=', periodStart)
        .where('holder', '=', holder)
        .execute();
    }
    await trx
      .updateTable('budget_spend')
      .set({ leased_nanos: sql<bigint>`greatest(leased_nanos - ${given}, 0)` })
      .where('budget_id', '=', budgetId)
      .where('period_start', '=', periodStart)
      .execute();
    return given;
  });
}

/** Heartbeat of one process's budget leases; returns the periods it still holds (a missing one was reclaimed). */
export async function renewBudgetLeases(db: DbOrTrx, holder: string): Promise<Set<string>> {
  const rows = await db
    .updateTable('budget_leases')
    .set({ renewed_at: sql<Date>`now()` })
    .where('holder', '=', holder)
    .returning(['budget_id', 'period_start'])
    .execute();
  return new Set(rows.map((row) => periodKey({ budgetId: row.budget_id, periodStart: row.period_start })));
}

/** Gives back the leases of processes silent for longer than `ttlSeconds` (database clock); returns how many. */
export function reclaimExpiredBudgetLeases(db: DbOrTrx, ttlSeconds: number): Promise<number> {
  return dropLeases(db, sql<boolean>`renewed_at < now() - make_interval(secs => ${ttlSeconds})`);
}

/** Ends every budget lease of one holder (graceful stop, after its last settlement was written). */
export function dropHolderBudgetLeases(db: DbOrTrx, holder: string): Promise<number> {
  return dropLeases(db, sql<boolean>`holder = ${holder}`);
}

async function dropLeases(db: DbOrTrx, where: ReturnType<typeof sql<boolean>>): Promise<number> {
  // Unlocked look first (usually nothing to do); the period rows are locked before the lease rows (the lock order).
  const candidates = await db
    .selectFrom('budget_leases')
    .select(['budget_id', 'period_start'])
    .distinct()
    .where(where)
    .execute();
  if (candidates.length === 0) return 0;
  return inTransaction(db, async (trx) => {
    const periods = candidates.map((row) => ({ budgetId: row.budget_id, periodStart: row.period_start }));
    await lockPeriods(trx, periods);
    let dropped = 0;
    for (const period of periods) {
      // The condition is evaluated again under the locks: a lease renewed since the look above stays.
      const rows = await trx
        .deleteFrom('budget_leases')
        .where('budget_id', '=', period.budgetId)
        .where('period_start', '=', period.periodStart)
        .where(where)
        .returning('amount_nanos')
        .execute();
      const amount = rows.reduce((sum, row) => sum + row.amount_nanos, 0n);
      dropped += rows.length;
      if (amount > 0n)
        await trx
          .updateTable('budget_spend')
          .set({ leased_nanos: sql<bigint>`greatest(leased_nanos - ${amount}, 0)` })
          .where('budget_id', '=', period.budgetId)
          .where('period_start', '=', period.periodStart)
          .execute();
    }
    return dropped;
  });
}

async function lockPeriods(trx: DbOrTrx, periods: readonly BudgetPeriod[]): Promise<void> {
  const sorted = [...periods].sort((a, b) => (periodKey(a) < periodKey(b) ? -1 : 1));
  for (const period of sorted) {
    await trx
      .selectFrom('budget_spend')
      .select('budget_id')
      .where('budget_id', '=', period.budgetId)
      .where('period_start', '=', period.periodStart)
      .forUpdate()
      .execute();
  }
}

/** One string per budget period (map keys, sort order). */
export function periodKey(period: BudgetPeriod): string {
  return `${period.budgetId}\u0000${period.periodStart.toISOString()}`;
}

/** A period's spend as recorded (informational: a refusal's `spent`, the sessions endpoint). */
export async function findBudgetSpend(db: DbOrTrx, period: BudgetPeriod): Promise<bigint> {
  const row = await db
    .selectFrom('budget_spend')
    .select('spent_nanos')
    .where('budget_id', '=', period.budgetId)
    .where('period_start', '=', period.periodStart)
    .executeTakeFirst();
  return row?.spent_nanos ?? 0n;
}
