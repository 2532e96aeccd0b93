import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import type { NewPassUsage, PassUsageStatus } from '../db/tables/pass-usage.js';

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

/** Holds `amountNanos` of quota for an admitted request (created at the caller's clock); returns the row id. */
export async function reservePassUsage(
  db: DbOrTrx,
  input: { userId: string; amountNanos: bigint; at: Date },
): Promise<bigint> {
  const row = await db
    .insertInto('pass_usage')
    .values({
      user_id: input.userId,
      reference_cost_nanos: input.amountNanos,
      status: 'reserved',
      created_at: input.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Drops a reservation that was never used; `false` when it was already settled or released. */
export async function releasePassUsage(db: DbOrTrx, id: bigint): Promise<boolean> {
  const result = await db
    .deleteFrom('pass_usage')
    .where('id', '=', id)
    .where('status', '=', 'reserved')
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Where the three windows start, and since when an unsettled reservation still counts. */
export interface WindowQuery {
  userId: string;
  /** Rolling window: rows created strictly after this count. */
  fiveHourAfter: Date;
  /** Calendar windows: rows created at or after these count. */
  weekFrom: Date;
  monthFrom: Date;
  /** Reservations created at or before this are stale and no longer count. */
  reservationsAfter: Date;
}

export interface WindowSums {
  fiveHour: bigint;
  weekly: bigint;
  monthly: bigint;
}

/** Settled usage plus live reservations in each window, in one statement. */
export async function sumPassWindows(db: DbOrTrx, q: WindowQuery): Promise<WindowSums> {
  const earliest = new Date(Math.min(q.fiveHourAfter.getTime(), q.weekFrom.getTime(), q.monthFrom.getTime()));
  const total = (filter: ReturnType<typeof sql>) =>
    sql<bigint>`cast(coalesce(sum(reference_cost_nanos) filter (where ${filter}), 0) as bigint)`;
  const row = await db
    .selectFrom('pass_usage')
    .select([
      total(sql`created_at > ${q.fiveHourAfter}`).as('five_hour'),
      total(sql`created_at >= ${q.weekFrom}`).as('weekly'),
      total(sql`created_at >= ${q.monthFrom}`).as('monthly'),
    ])
    .where('user_id', '=', q.userId)
    .where('created_at', '>=', earliest)
    .where((eb) => eb.or([eb('status', '=', 'settled'), eb('created_at', '>', q.reservationsAfter)]))
    .executeTakeFirstOrThrow();
  return { fiveHour: row.five_hour, weekly: row.weekly, monthly: row.monthly };
}

export interface CountedUsage {
  created_at: Date;
  reference_cost_nanos: bigint;
  status: PassUsageStatus;
}

/** The rows that count in the rolling window now (for its reset time), oldest first. */
export async function listRollingUsage(
  db: DbOrTrx,
  q: Pick<WindowQuery, 'userId' | 'fiveHourAfter' | 'reservationsAfter'>,
): Promise<CountedUsage[]> {
  return db
    .selectFrom('pass_usage')
    .select(['created_at', 'reference_cost_nanos', 'status'])
    .where('user_id', '=', q.userId)
    .where('created_at', '>', q.fiveHourAfter)
    .where((eb) => eb.or([eb('status', '=', 'settled'), eb('created_at', '>', q.reservationsAfter)]))
    .orderBy('created_at')
    .execute();
}
