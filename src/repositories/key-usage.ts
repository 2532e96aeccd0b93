import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import { utcDayParam } from '../db/utc-day.js';
import { dayStart, monthStart, weekStart } from '../core/utc-calendar.js';

/** Credits spent through a key (generation costs; pass requests cost 0 credits), all time and this UTC day/week/month. */
export interface KeyUsage {
  totalNanos: bigint;
  dailyNanos: bigint;
  weeklyNanos: bigint;
  monthlyNanos: bigint;
}

/**
 * From the running totals (migration 0012), not the records: the lifetime total is one row per key, and the periods
 * sum at most ~37 days of that key's daily rows, however many requests it made. Every period starts at a UTC
 * midnight, so the daily rows answer exactly what a sum of the records over `created_at >= start` did.
 */
export async function sumKeyUsage(db: DbOrTrx, keyIds: readonly string[], now: Date): Promise<Map<string, KeyUsage>> {
  const usage = new Map<string, KeyUsage>();
  if (keyIds.length === 0) return usage;
  const week = weekStart(now);
  const month = monthStart(now);
  // biome-ignore lint/complexity/useMathMinMax: week and month are Dates; Math.min would turn them into numbers.
  const earliest = week < month ? week : month;
  const since = (from: Date) =>
    sql<bigint>`cast(coalesce(sum(d.cost_nanos) filter (where d.day >= ${utcDayParam(from)}), 0) as bigint)`;
  const rows = await db
    .selectFrom('usage_key_totals as t')
    .leftJoin('usage_daily as d', (join) =>
      join.onRef('d.api_key_id', '=', 't.api_key_id').on(sql<boolean>`d.day >= ${utcDayParam(earliest)}`),
    )
    .select([
      't.api_key_id',
      't.cost_nanos as total',
      since(dayStart(now)).as('daily'),
      since(week).as('weekly'),
      since(month).as('monthly'),
    ])
    .where('t.api_key_id', 'in', [...keyIds])
    .groupBy(['t.api_key_id', 't.cost_nanos'])
    .execute();
  for (const r of rows) {
    usage.set(r.api_key_id, {
      totalNanos: r.total,
      dailyNanos: r.daily,
      weeklyNanos: r.weekly,
      monthlyNanos: r.monthly,
    });
  }
  return usage;
}
