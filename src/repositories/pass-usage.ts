import type { DbOrTrx } from '../db/database.js';
import type { NewPassUsage } from '../db/tables/pass-usage.js';

/** Records a pass-mode generation's reference cost. Idempotent on `generation_id`: `false` if already recorded. */
export async function insertPassUsage(db: DbOrTrx, row: NewPassUsage): Promise<boolean> {
  const inserted = await db
    .insertInto('pass_usage')
    .values(row)
    .onConflict((oc) => oc.column('generation_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Reference cost used since `since` (inclusive): the input of a rolling quota window. */
export async function sumPassUsageSince(db: DbOrTrx, userId: string, since: Date): Promise<bigint> {
  const row = await db
    .selectFrom('pass_usage')
    .select((eb) =>
      eb.cast<bigint>(eb.fn.coalesce(eb.fn.sum('reference_cost_nanos'), eb.lit(0)), 'bigint').as('total'),
    )
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return row.total;
}
