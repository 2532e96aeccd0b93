import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import type { NewGeneration } from '../db/tables/generations.js';

/** How one finished request settles, next to its generation record. */
export type GenerationSettlement =
  | { record: NewGeneration; settle: 'none' }
  | {
      record: NewGeneration;
      settle: 'credits';
      /** Not leased: the request's own hold, released. Leased: ignored (the cost is paid out of the lease). */
      reservedNanos: bigint;
      /** Admitted against this holder's credit lease (src/billing/credit-leases.ts). */
      leaseHolder?: string;
    }
  | { record: NewGeneration; settle: 'pass'; passUsageId?: bigint };

/**
 * Writes the records and settles those new to the table, atomically, in one statement (the `settle_generations`
 * function of migration 0005, which holds the debit rule and the lock order): a credits request's debit and
 * ledger row, its hold released or its cost paid out of its lease; a pass request's quota reservation turned into
 * its reference cost. A record already written is skipped with its settlement. Returns how many records were new.
 */
export async function settleGenerationBatch(db: DbOrTrx, items: readonly GenerationSettlement[]): Promise<number> {
  if (items.length === 0) return 0;
  const batch = JSON.stringify(items.map(settlementRow));
  const result = await sql<{ fresh: number }>`select settle_generations(${batch}::jsonb) as fresh`.execute(db);
  return Number(result.rows[0]?.fresh ?? 0);
}

/** One element of the function's JSON batch: the record's columns (money as decimal strings) and its settlement. */
function settlementRow(item: GenerationSettlement): Record<string, unknown> {
  const { record } = item;
  return {
    ...record,
    cost_nanos: record.cost_nanos === undefined ? undefined : String(record.cost_nanos),
    reference_cost_nanos: record.reference_cost_nanos == null ? null : String(record.reference_cost_nanos),
    created_at: record.created_at instanceof Date ? record.created_at.toISOString() : record.created_at,
    settle: item.settle === 'none' ? null : item.settle,
    reserved_nanos: item.settle === 'credits' ? String(item.reservedNanos) : null,
    lease_holder: item.settle === 'credits' ? (item.leaseHolder ?? null) : null,
    pass_usage_id: item.settle === 'pass' && item.passUsageId !== undefined ? String(item.passUsageId) : null,
  };
}
