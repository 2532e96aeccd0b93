// The reads as they were before the running totals (migration 0012): sums over every generation record. Kept here
// only so `make bench-history` can show, on the same data, what the totals replaced.
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { dayStart, monthStart, weekStart } from '../../src/core/utc-calendar.js';

/** sumKeyUsage before: lifetime, day, week and month of a key from its records. */
export async function keyUsageFromRecords(db: Db, keyIds: string[], now: Date): Promise<unknown> {
  const since = (from: Date) =>
    sql<bigint>`cast(coalesce(sum(cost_nanos) filter (where created_at >= ${from}), 0) as bigint)`;
  return db
    .selectFrom('generations')
    .select([
      'api_key_id',
      sql<bigint>`cast(coalesce(sum(cost_nanos), 0) as bigint)`.as('total'),
      since(dayStart(now)).as('daily'),
      since(weekStart(now)).as('weekly'),
      since(monthStart(now)).as('monthly'),
    ])
    .where('api_key_id', 'in', keyIds)
    .groupBy('api_key_id')
    .execute();
}

/** usageReport before: the records of [from, to) grouped by key. */
export async function usageByKeyFromRecords(db: Db, from: Date, to: Date): Promise<unknown> {
  const total = (column: string) => sql<bigint>`cast(coalesce(sum(${sql.ref(column)}), 0) as bigint)`;
  return db
    .selectFrom('generations')
    .select([
      'api_key_id',
      sql<string>`count(*)`.as('requests'),
      total('prompt_tokens').as('p'),
      total('completion_tokens').as('c'),
      total('cached_tokens').as('k'),
      total('reasoning_tokens').as('r'),
      total('cost_nanos').as('cost'),
    ])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy('api_key_id')
    .execute();
}
