// Synthetic settled history for `make bench-history`: generation records and their ledger debits written straight
// into PostgreSQL with generate_series (~1M rows in about a minute, against hours through the gateway). The records
// look like real ones (ids, upstream ids, token counts, costs, timings) so their row sizes are representative, and
// the insert goes through the same trigger as settlement, so the running totals are kept as in production.
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';

export interface HistoryShape {
  /** The key that makes 9 of every 10 requests (the agent polling GET /key). */
  hotUserId: string;
  hotKeyId: string;
  /** Other users' keys, one each, sharing the remaining tenth. */
  otherUserIds: string[];
  otherKeyIds: string[];
  models: string[];
  /** Each appended step is spread evenly over the `days` days before `now`, oldest inserted first. */
  now: Date;
  days: number;
}

/**
 * Appends records number `from` to `to - 1`, each credits record with its debit, spread evenly over the whole span in
 * time order: every step covers all `days` days, as more traffic over the same month would, so a read of the last
 * two days sees its share of every step.
 */
export async function appendHistory(db: Db, shape: HistoryShape, range: { from: number; to: number }): Promise<void> {
  const spanMs = shape.days * 86_400_000;
  await sql`
    with g as (
      insert into generations (
        id, user_id, api_key_id, access_mode, model, provider, upstream_model, upstream_id, streamed, finish_reason,
        status, http_status, prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens, cost_nanos, latency_ms,
        time_to_first_token_ms, created_at, api_format)
      select
        'gen-' || substr(md5(${shape.hotKeyId} || i::text), 1, 26),
        case when i % 10 = 0 then (${shape.otherUserIds}::text[])[1 + (i / 10) % ${shape.otherUserIds.length}] else ${shape.hotUserId} end,
        case when i % 10 = 0 then (${shape.otherKeyIds}::text[])[1 + (i / 10) % ${shape.otherKeyIds.length}] else ${shape.hotKeyId} end,
        'credits',
        (${shape.models}::text[])[1 + i % ${shape.models.length}],
        'openai', 'gpt-5.4-mini-2026-03-01', 'chatcmpl-' || substr(md5(i::text), 1, 24), i % 2 = 0, 'stop', 'success', 200,
        500 + i % 1500, 100 + i % 700, i % 300, i % 50, (500 + i % 1500) * 250 + (100 + i % 700) * 2000, 800 + i % 400, 200 + i % 100,
        ${shape.now}::timestamptz - make_interval(secs => ${spanMs / 1000}::float8 * (${range.to} - i) / ${range.to - range.from}),
        'chat_completions'
      from generate_series(${range.from}::bigint, ${range.to - 1}::bigint) as i
      returning id, user_id, cost_nanos, created_at
    )
    insert into credit_ledger (user_id, kind, amount_nanos, generation_id, created_at)
    select user_id, 'debit', -cost_nanos, id, created_at from g`.execute(db);
  await sql`analyze generations`.execute(db);
  await sql`analyze credit_ledger`.execute(db);
  await sql`analyze usage_daily`.execute(db);
}

export interface TableStorage {
  table: string;
  rows: number;
  /** Average size of a row's tuple data (pg_column_size of the row). */
  tupleBytes: number;
  /** Table, TOAST and every index, divided by the rows. */
  totalBytesPerRow: number;
  totalMegabytes: number;
}

/** Storage of each table, per row: what one request costs in each (a generation and a debit per request). */
export async function measureStorage(db: Db, tables: readonly string[]): Promise<TableStorage[]> {
  const measured: TableStorage[] = [];
  for (const table of tables) {
    const { rows } = await sql<{ rows: string; tuple: string | null; total: string }>`
      select count(*) as rows, avg(pg_column_size(t.*)) as tuple, pg_total_relation_size(${table}::regclass) as total
      from ${sql.table(table)} t`.execute(db);
    const count = Number(rows[0].rows);
    const total = Number(rows[0].total);
    measured.push({
      table,
      rows: count,
      tupleBytes: Math.round(Number(rows[0].tuple ?? 0)),
      totalBytesPerRow: count === 0 ? 0 : Math.round(total / count),
      totalMegabytes: Math.round((total / 2 ** 20) * 10) / 10,
    });
  }
  return measured;
}
