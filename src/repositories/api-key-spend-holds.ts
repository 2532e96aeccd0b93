import { sql } from 'kysely';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database, DbOrTrx } from '../db/database.js';
import { inTransaction } from '../db/in-transaction.js';
import { unreserveKeySpend } from './api-key-spend.js';

// Which gateway process holds what of a limited key's period (migration 0009), so that the holds of a process that
// died are given back, as its credit leases are (src/repositories/credit-leases.ts). The holder renews its rows with
// the lease heartbeat; any process reclaims the rows of a holder silent for longer than the lease TTL, by the
// database clock. Lock order: api_key_spend rows (by key, period), then api_key_spend_holds rows.

/** Heartbeat of one process's key-spend holds (only rows that hold something: empty ones may go). */
export async function renewKeySpendHolds(db: DbOrTrx, holder: string): Promise<number> {
  const result = await db
    .updateTable('api_key_spend_holds')
    .set({ renewed_at: sql<Date>`now()` })
    .where('holder', '=', holder)
    .where('held_nanos', '>', 0n)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Gives back the key-spend holds of processes that stopped renewing them for longer than `ttlSeconds` (database
 * clock, so instances with skewed clocks agree), and drops their empty rows. Returns how many holds (non-empty rows)
 * were reclaimed.
 */
export async function reclaimExpiredKeySpendHolds(db: DbOrTrx, ttlSeconds: number): Promise<number> {
  return dropHolds(db, (eb) => eb('renewed_at', '<', sql<Date>`now() - make_interval(secs => ${ttlSeconds})`));
}

/** Ends every key-spend hold of one holder (graceful stop, after its last settlement was written). */
export async function dropHolderKeySpendHolds(db: DbOrTrx, holder: string): Promise<number> {
  return dropHolds(db, (eb) => eb('holder', '=', holder));
}

type HoldCondition = (eb: ExpressionBuilder<Database, 'api_key_spend_holds'>) => Expression<SqlBool>;

async function dropHolds(db: DbOrTrx, where: HoldCondition): Promise<number> {
  // Unlocked look first: on the periodic path there is usually nothing to reclaim, and the spend rows must be locked
  // before the holds rows (the lock order).
  const candidates = await db
    .selectFrom('api_key_spend_holds')
    .select(['key_id', 'period_start'])
    .distinct()
    .where(where)
    .execute();
  if (candidates.length === 0) return 0;
  return inTransaction(db, async (trx) => {
    // Lock and drop within the same (key, period) cross product, so no holds row is deleted before its spend row is
    // locked.
    const keyIds = [...new Set(candidates.map((row) => row.key_id))];
    const periods = [...new Map(candidates.map((row) => [row.period_start.getTime(), row.period_start])).values()];
    await trx
      .selectFrom('api_key_spend')
      .select('key_id')
      .where('key_id', 'in', keyIds)
      .where('period_start', 'in', periods)
      .orderBy('key_id')
      .orderBy('period_start')
      .forUpdate()
      .execute();
    // The condition is evaluated again under the locks: a row renewed or refilled since the look above stays.
    const dropped = await trx
      .deleteFrom('api_key_spend_holds')
      .where('key_id', 'in', keyIds)
      .where('period_start', 'in', periods)
      .where(where)
      .returning(['key_id', 'period_start', 'held_nanos'])
      .execute();
    const byPeriod = new Map<string, { keyId: string; periodStart: Date; heldNanos: bigint }>();
    for (const row of dropped) {
      const id = `${row.key_id}\u0000${row.period_start.toISOString()}`;
      const entry = byPeriod.get(id) ?? { keyId: row.key_id, periodStart: row.period_start, heldNanos: 0n };
      entry.heldNanos += row.held_nanos;
      byPeriod.set(id, entry);
    }
    for (const period of byPeriod.values()) {
      if (period.heldNanos > 0n) await unreserveKeySpend(trx, period.keyId, period.periodStart, period.heldNanos);
    }
    return dropped.filter((row) => row.held_nanos > 0n).length;
  });
}
