// `date` columns (usage_daily.day) are compared with text parameters cast to date, never with timestamps: a
// timestamptz compared with a date is converted in the session's time zone, and the drivers parse a `date` they read
// differently (pg into a local-time Date).
import { sql, type RawBuilder } from 'kysely';

/** The UTC calendar day of `at`, 'YYYY-MM-DD'. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The UTC day of `at` as a SQL `date` value. */
export function utcDayParam(at: Date): RawBuilder<string> {
  return sql<string>`${utcDay(at)}::date`;
}
