import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// Running totals of the generation records. Reads that summed every record a key or a user ever made
// (GET /key, the key listings, GET /activity, GET /admin/usage, a limit set on a used key) grew with history: 265-304
// ms for GET /key after 540,000 requests on one key. They now read these totals, which cost O(days) or O(1):
//   usage_daily       per UTC day (of the record's created_at), user, key ('' for account tokens: a primary key
//                     column cannot be null), model and access mode: requests, tokens, credits charged, and the
//                     reference cost of pass requests;
//   usage_key_totals  per key, over its whole life: requests and credits charged (GET /key `usage`, O(1)).
// The per-request rows stay as the audit trail, and may be pruned (generation_retention below) without touching the
// totals or the ledger.
//
// The totals are kept by a statement-level trigger on generations (one aggregated upsert per inserted batch, from the
// statement's transition table), not by a step inside settle_generations: the trigger runs in the statement that
// inserts the records, inside settle_generations' own statement and transaction, so totals and records commit
// together; and it also counts the records of any writer, including a process of the previous release whose
// settle_generations call was waiting on the lock this migration holds, so the backfill below is exact. The transition
// table holds only rows actually inserted (`on conflict do nothing` skips repeats): a record is counted once.
// Lock order: the trigger locks its totals rows (sorted by primary key) before settle_generations locks
// credit_accounts; no other writer touches the totals, so no cycle can form.
//
// generations_created_at_idx: the report reads the records of a partial day at the edges of its range, and the
// pruning deletes the oldest records in batches; both by created_at alone.
//
// generation_retention: records created before `pruned_before` may have been deleted. Reads that need records (a
// report bound inside a day) refuse such a range instead of answering a partial sum.
const USAGE_DAILY = sql`
create table usage_daily (
  day date not null,
  user_id text not null,
  api_key_id text not null,
  model text not null,
  access_mode text not null,
  requests bigint not null,
  prompt_tokens bigint not null,
  completion_tokens bigint not null,
  cached_tokens bigint not null,
  cache_write_tokens bigint not null,
  reasoning_tokens bigint not null,
  cost_nanos bigint not null,
  reference_cost_nanos bigint not null,
  primary key (user_id, day, api_key_id, model, access_mode))`;

const USAGE_KEY_TOTALS = sql`
create table usage_key_totals (
  api_key_id text primary key,
  requests bigint not null,
  cost_nanos bigint not null)`;

const GENERATION_RETENTION = sql`
create table generation_retention (
  singleton boolean primary key default true check (singleton),
  pruned_before timestamptz not null)`;

/** The same aggregations for the trigger (over its transition table) and the backfill (over the whole table). */
function addDailyTotals(source: 'new_generations' | 'generations') {
  return sql`
  insert into usage_daily as u (
    day, user_id, api_key_id, model, access_mode, requests, prompt_tokens, completion_tokens, cached_tokens,
    cache_write_tokens, reasoning_tokens, cost_nanos, reference_cost_nanos)
  select (g.created_at at time zone 'UTC')::date, g.user_id, coalesce(g.api_key_id, ''), g.model, g.access_mode, count(*),
    sum(g.prompt_tokens), sum(g.completion_tokens), sum(g.cached_tokens), sum(g.cache_write_tokens),
    sum(g.reasoning_tokens), sum(g.cost_nanos), coalesce(sum(g.reference_cost_nanos), 0)
  from ${sql.raw(source)} g
  group by 1, 2, 3, 4, 5
  order by 2, 1, 3, 4, 5
  on conflict (user_id, day, api_key_id, model, access_mode) do update set
    requests = u.requests + excluded.requests,
    prompt_tokens = u.prompt_tokens + excluded.prompt_tokens,
    completion_tokens = u.completion_tokens + excluded.completion_tokens,
    cached_tokens = u.cached_tokens + excluded.cached_tokens,
    cache_write_tokens = u.cache_write_tokens + excluded.cache_write_tokens,
    reasoning_tokens = u.reasoning_tokens + excluded.reasoning_tokens,
    cost_nanos = u.cost_nanos + excluded.cost_nanos,
    reference_cost_nanos = u.reference_cost_nanos + excluded.reference_cost_nanos`;
}

function addKeyTotals(source: 'new_generations' | 'generations') {
  return sql`
  insert into usage_key_totals as k (api_key_id, requests, cost_nanos)
  select g.api_key_id, count(*), sum(g.cost_nanos)
  from ${sql.raw(source)} g
  where g.api_key_id is not null
  group by 1
  order by 1
  on conflict (api_key_id) do update set
    requests = k.requests + excluded.requests,
    cost_nanos = k.cost_nanos + excluded.cost_nanos`;
}

/** Exported for 0013's down, which puts this version back. */
export const TRIGGER_FUNCTION = sql`
create function generations_add_usage_totals() returns trigger
language plpgsql as $fn$
begin
  ${addDailyTotals('new_generations')};
  ${addKeyTotals('new_generations')};
  return null;
end
$fn$`;

/** Exported for 0013's down. */
export const TRIGGER = sql`
create trigger generations_usage_totals
after insert on generations
referencing new table as new_generations
for each statement execute function generations_add_usage_totals()`;

export async function up(db: Kysely<any>): Promise<void> {
  await USAGE_DAILY.execute(db);
  await sql`create index usage_daily_day_idx on usage_daily (day)`.execute(db);
  await sql`create index usage_daily_key_day_idx on usage_daily (api_key_id, day)`.execute(db);
  await USAGE_KEY_TOTALS.execute(db);
  await GENERATION_RETENTION.execute(db);
  await TRIGGER_FUNCTION.execute(db);
  // From here until commit no record can be inserted (the trigger's lock), and every insert after commit goes
  // through the trigger: the backfill below counts each record exactly once.
  await TRIGGER.execute(db);
  await addDailyTotals('generations').execute(db);
  await addKeyTotals('generations').execute(db);
  await sql`create index generations_created_at_idx on generations (created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index generations_created_at_idx`.execute(db);
  await sql`drop trigger generations_usage_totals on generations`.execute(db);
  await sql`drop function generations_add_usage_totals()`.execute(db);
  await sql`drop table generation_retention`.execute(db);
  await sql`drop table usage_key_totals`.execute(db);
  await sql`drop table usage_daily`.execute(db);
}
