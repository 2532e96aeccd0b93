// Read models for the account page and dashboards: usage per UTC day and model, and the latest records.
// Both are plain queries over `generations` (one row per settled request), so they see exactly what was charged.
import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import type { GenerationRow } from '../db/tables/generations.js';

export interface DailyModelUsage {
  /** UTC day, YYYY-MM-DD. */
  date: string;
  model: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  costNanos: bigint;
}

/** The UTC midnight that starts a window of `days` days ending today (today included). */
export function activityWindowStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * 86_400_000);
}

/**
 * Usage of one user grouped by UTC day and model since `since`, oldest day first then by model. The day is computed
 * in SQL in UTC whatever the session's time zone, identically on PGlite and PostgreSQL.
 */
export async function listDailyUsage(db: DbOrTrx, input: { userId: string; since: Date }): Promise<DailyModelUsage[]> {
  const day = sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom('generations')
    .select((eb) => [
      day.as('date'),
      'model',
      eb.fn.countAll<string | number | bigint>().as('requests'),
      // sum(int) is bigint and sum(bigint) numeric: cast so both parse like the other integer columns.
      eb.cast<string | number | bigint>(eb.fn.coalesce(eb.fn.sum('prompt_tokens'), eb.lit(0)), 'bigint').as('prompt_tokens'),
      eb.cast<string | number | bigint>(eb.fn.coalesce(eb.fn.sum('completion_tokens'), eb.lit(0)), 'bigint').as('completion_tokens'),
      eb.cast<bigint>(eb.fn.coalesce(eb.fn.sum('cost_nanos'), eb.lit(0)), 'bigint').as('cost_nanos'),
    ])
    .where('user_id', '=', input.userId)
    .where('created_at', '>=', input.since)
    .groupBy([day, 'model'])
    .orderBy(day)
    .orderBy('model')
    .execute();
  return rows.map((row) => ({
    date: row.date,
    model: row.model,
    requests: Number(row.requests),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    costNanos: BigInt(row.cost_nanos),
  }));
}

/** The user's latest `limit` generation records, newest first (ties broken by id so the order is stable). */
export async function listRecentGenerations(
  db: DbOrTrx,
  input: { userId: string; limit: number },
): Promise<GenerationRow[]> {
  return db
    .selectFrom('generations')
    .selectAll()
    .where('user_id', '=', input.userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(input.limit)
    .execute();
}
