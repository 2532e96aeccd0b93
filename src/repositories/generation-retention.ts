// Pruning of old generation records (the audit trail). The running totals (usage_daily, usage_key_totals) and the
// ledger are never touched: ledger rows and pass_usage rows name a generation id without a foreign key, and the totals
// are only ever added to, by the insert trigger of migration 0012.
import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';

/** Records created before this instant may have been pruned; undefined when nothing ever was. */
export async function prunedBefore(db: DbOrTrx): Promise<Date | undefined> {
  const row = await db.selectFrom('generation_retention').select('pruned_before').executeTakeFirst();
  return row?.pruned_before;
}

/**
 * Records the cutoff before deleting anything, so a reader that needs records older than it is refused from the
 * first deleted row on. A cutoff never moves back (a shorter retention run later does not resurrect records).
 */
export async function markPrunedBefore(db: DbOrTrx, cutoff: Date): Promise<void> {
  await sql`
    insert into generation_retention (singleton, pruned_before) values (true, ${cutoff})
    on conflict (singleton) do update set pruned_before = greatest(generation_retention.pruned_before, excluded.pruned_before)`.execute(
    db,
  );
}

/**
 * Deletes up to `limit` records created before `cutoff`, oldest first (generations_created_at_idx); returns how many.
 * Rows another pruner is deleting are skipped, so instances pruning at once neither wait for nor repeat each other.
 */
export async function deleteGenerationsBefore(db: DbOrTrx, cutoff: Date, limit: number): Promise<number> {
  const { rows } = await sql<{ deleted: bigint }>`
    with doomed as (
      select id from generations where created_at < ${cutoff} order by created_at limit ${limit} for update skip locked
    ), deleted as (
      delete from generations g using doomed where g.id = doomed.id returning 1
    )
    select count(*) as deleted from deleted`.execute(db);
  return Number(rows[0]?.deleted ?? 0n);
}
