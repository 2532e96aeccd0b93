// Read models for the account page and dashboards: usage per UTC day and model (from the daily totals, which the
// same statement as each record keeps, so they hold exactly what was charged), and the latest records.
import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import type { GenerationRow } from '../db/tables/generations.js';
import { utcDayParam } from '../db/utc-day.js';
import { dayStart } from '../core/utc-calendar.js';
import { madeByMember } from './member-keys.js';

export interface DailyModelUsage {
  /** UTC day, YYYY-MM-DD. */
  date: string;
  model: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  costNanos: bigint;
  /** Answers served from the response cache (not counted in `requests`). */
  cacheHits: number;
  /** What those hits saved (their originals' cost less their charge). */
  cacheSavedNanos: bigint;
}

/** The UTC midnight that starts a window of `days` days ending today (today included). */
export function activityWindowStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * 86_400_000);
}

/**
 * Usage of one organization (with `memberUserId`: that member's own, by key or account token) grouped by UTC day and model since `since` (a UTC midnight), oldest day first then by model. Read
 * from the daily totals (migration 0012): O(days × models), however many requests the user made.
 */
export async function listDailyUsage(
  db: DbOrTrx,
  input: { userId: string; since: Date; memberUserId?: string },
): Promise<DailyModelUsage[]> {
  if (input.since.getTime() !== dayStart(input.since).getTime()) throw new RangeError('since must be a UTC midnight');
  const total = (
    column: 'requests' | 'prompt_tokens' | 'completion_tokens' | 'cost_nanos' | 'cache_hits' | 'cache_saved_nanos',
  ) => sql<bigint>`cast(sum(${sql.ref(column)}) as bigint)`;
  const rows = await db
    .selectFrom('usage_daily')
    .select([
      sql<string>`to_char(day, 'YYYY-MM-DD')`.as('date'),
      'model',
      total('requests').as('requests'),
      total('prompt_tokens').as('prompt_tokens'),
      total('completion_tokens').as('completion_tokens'),
      total('cost_nanos').as('cost_nanos'),
      total('cache_hits').as('cache_hits'),
      total('cache_saved_nanos').as('cache_saved_nanos'),
    ])
    .where('user_id', '=', input.userId)
    .$if(input.memberUserId !== undefined, (q) => q.where(madeByMember(db, input.userId, input.memberUserId ?? '')))
    .where(sql<boolean>`day >= ${utcDayParam(input.since)}`)
    .groupBy(['day', 'model'])
    .orderBy('day')
    .orderBy('model')
    .execute();
  return rows.map((row) => ({
    date: row.date,
    model: row.model,
    requests: Number(row.requests),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    costNanos: row.cost_nanos,
    cacheHits: Number(row.cache_hits),
    cacheSavedNanos: row.cache_saved_nanos,
  }));
}

/**
 * The organization's latest `limit` generation records, newest first (ties broken by id so the order is stable);
 * with `memberUserId`, only that member's own (its keys' and its account token's).
 */
export async function listRecentGenerations(
  db: DbOrTrx,
  input: { userId: string; limit: number; memberUserId?: string },
): Promise<GenerationRow[]> {
  return db
    .selectFrom('generations')
    .selectAll()
    .where('user_id', '=', input.userId)
    .$if(input.memberUserId !== undefined, (q) => q.where(madeByMember(db, input.userId, input.memberUserId ?? '')))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(input.limit)
    .execute();
}
