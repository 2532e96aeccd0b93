import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import { dayStart } from '../billing/key-periods.js';
import { monthStart, weekStart } from '../pass/windows.js';

/** Credits spent through a key (generation costs; pass requests cost 0 credits), all time and this UTC day/week/month. */
export interface KeyUsage {
  totalNanos: bigint;
  dailyNanos: bigint;
  weeklyNanos: bigint;
  monthlyNanos: bigint;
}

export async function sumKeyUsage(db: DbOrTrx, keyIds: readonly string[], now: Date): Promise<Map<string, KeyUsage>> {
  const usage = new Map<string, KeyUsage>();
  if (keyIds.length === 0) return usage;
  const since = (from: Date) => sql<bigint>`cast(coalesce(sum(cost_nanos) filter (where created_at >= ${from}), 0) as bigint)`;
  const rows = await db
    .selectFrom('generations')
    .select([
      'api_key_id',
      sql<bigint>`cast(coalesce(sum(cost_nanos), 0) as bigint)`.as('total'),
      since(dayStart(now)).as('daily'),
      since(weekStart(now)).as('weekly'),
      since(monthStart(now)).as('monthly'),
    ])
    .where('api_key_id', 'in', [...keyIds])
    .groupBy('api_key_id')
    .execute();
  for (const r of rows) {
    if (r.api_key_id === null) continue;
    usage.set(r.api_key_id, { totalNanos: r.total, dailyNanos: r.daily, weeklyNanos: r.weekly, monthlyNanos: r.monthly });
  }
  return usage;
}
