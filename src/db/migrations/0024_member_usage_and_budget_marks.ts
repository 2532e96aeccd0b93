import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// Usage by member for every credential that has one, and `budget.threshold` exactly once.
// - generations.member_user_id: the member behind the request (a key's member, or the account token's user); null in
//   records written before (their member, if any, is their key's). usage_daily.member_user_id keeps it in the daily
//   totals ('' when unknown: a primary key column cannot be null), so the totals of two members' account-token
//   requests stay apart. The totals' trigger function is replaced here, in the transaction that changes the primary
//   key, so no batch is ever summed against a key that no longer exists; its living definition
//   (src/db/functions/add-usage-totals.ts) holds the same text from here on.
// - budget.threshold from settled totals: a trigger on budget_spend (organization, member, session and key budgets)
//   and one on api_key_spend (a key's own limit) see each settled spend as it goes from old to new, under the row's
//   lock, so a crossing is seen by exactly one settlement whatever the number of gateways. webhook_budget_marks keys
//   each event on (endpoint, budget, period, fraction): a fraction fires once per period even when the limit moves
//   back and forth; a new period fires again.

const TOTALS_FUNCTION = sql`
create or replace function generations_add_usage_totals() returns trigger
language plpgsql as $fn$
begin
  insert into usage_daily as u (
    day, user_id, api_key_id, member_user_id, model, access_mode, requests, prompt_tokens, completion_tokens,
    cached_tokens, cache_write_tokens, reasoning_tokens, cost_nanos, reference_cost_nanos, cache_hits,
    cache_saved_nanos)
  select (g.created_at at time zone 'UTC')::date, g.user_id, coalesce(g.api_key_id, ''),
    coalesce(g.member_user_id, ''), g.model, g.access_mode,
    count(*) filter (where not g.cache_hit),
    sum(g.prompt_tokens), sum(g.completion_tokens), sum(g.cached_tokens), sum(g.cache_write_tokens),
    sum(g.reasoning_tokens), sum(g.cost_nanos), coalesce(sum(g.reference_cost_nanos), 0),
    count(*) filter (where g.cache_hit), sum(g.cache_saved_nanos)
  from new_generations g
  group by 1, 2, 3, 4, 5, 6
  order by 2, 1, 3, 4, 5, 6
  on conflict (user_id, day, api_key_id, member_user_id, model, access_mode) do update set
    requests = u.requests + excluded.requests,
    prompt_tokens = u.prompt_tokens + excluded.prompt_tokens,
    completion_tokens = u.completion_tokens + excluded.completion_tokens,
    cached_tokens = u.cached_tokens + excluded.cached_tokens,
    cache_write_tokens = u.cache_write_tokens + excluded.cache_write_tokens,
    reasoning_tokens = u.reasoning_tokens + excluded.reasoning_tokens,
    cost_nanos = u.cost_nanos + excluded.cost_nanos,
    reference_cost_nanos = u.reference_cost_nanos + excluded.reference_cost_nanos,
    cache_hits = u.cache_hits + excluded.cache_hits,
    cache_saved_nanos = u.cache_saved_nanos + excluded.cache_saved_nanos;

  insert into usage_key_totals as k (api_key_id, requests, cost_nanos)
  select g.api_key_id, count(*) filter (where not g.cache_hit), sum(g.cost_nanos)
  from new_generations g
  where g.api_key_id is not null
  group by 1
  order by 1
  on conflict (api_key_id) do update set
    requests = k.requests + excluded.requests,
    cost_nanos = k.cost_nanos + excluded.cost_nanos;
  return null;
end
$fn$`;

/** 0013's version, which down() puts back. */
const PREVIOUS_TOTALS_FUNCTION = sql`
create or replace function generations_add_usage_totals() returns trigger
language plpgsql as $fn$
begin
  insert into usage_daily as u (
    day, user_id, api_key_id, model, access_mode, requests, prompt_tokens, completion_tokens, cached_tokens,
    cache_write_tokens, reasoning_tokens, cost_nanos, reference_cost_nanos, cache_hits, cache_saved_nanos)
  select (g.created_at at time zone 'UTC')::date, g.user_id, coalesce(g.api_key_id, ''), g.model, g.access_mode,
    count(*) filter (where not g.cache_hit),
    sum(g.prompt_tokens), sum(g.completion_tokens), sum(g.cached_tokens), sum(g.cache_write_tokens),
    sum(g.reasoning_tokens), sum(g.cost_nanos), coalesce(sum(g.reference_cost_nanos), 0),
    count(*) filter (where g.cache_hit), sum(g.cache_saved_nanos)
  from new_generations g
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
    reference_cost_nanos = u.reference_cost_nanos + excluded.reference_cost_nanos,
    cache_hits = u.cache_hits + excluded.cache_hits,
    cache_saved_nanos = u.cache_saved_nanos + excluded.cache_saved_nanos;

  insert into usage_key_totals as k (api_key_id, requests, cost_nanos)
  select g.api_key_id, count(*) filter (where not g.cache_hit), sum(g.cost_nanos)
  from new_generations g
  where g.api_key_id is not null
  group by 1
  order by 1
  on conflict (api_key_id) do update set
    requests = k.requests + excluded.requests,
    cost_nanos = k.cost_nanos + excluded.cost_nanos;
  return null;
end
$fn$`;

/** When a period that started at `period` ends (UTC calendar); null for a budget that never resets. */
const PERIOD_END = sql`
create function webhook_budget_period_end(reset text, period timestamptz) returns timestamptz
language sql immutable as $fn$
  select case
    when period = 'epoch'::timestamptz then null
    when reset = 'daily' then ((period at time zone 'UTC') + interval '1 day') at time zone 'UTC'
    when reset = 'weekly' then ((period at time zone 'UTC') + interval '7 days') at time zone 'UTC'
    when reset = 'monthly' then ((period at time zone 'UTC') + interval '1 month') at time zone 'UTC'
  end
$fn$`;

// The one emission: a budget's settled spend moved from spent_before to spent_after in one period. Each endpoint of
// the organization that receives budget.threshold gets one event per fraction crossed, unless that fraction of that
// budget and period was already sent to it. Fractions have at most 4 decimals (the API's bound): the mark is exact.
const EMIT = sql`
create function webhook_budget_threshold(organization text, level text, budget text, key_id text, limit_nanos bigint,
  spent_before bigint, spent_after bigint, period timestamptz, resets_at timestamptz) returns integer
language plpgsql as $fn$
declare
  endpoint record;
  fraction jsonb;
  basis integer;
  mark numeric;
  event_id text;
  emitted integer := 0;
begin
  if limit_nanos is null or limit_nanos <= 0 or spent_after <= spent_before then
    return 0;
  end if;
  for endpoint in
    select e.id, e.budget_thresholds from webhook_endpoints e
    where e.organization_id = organization and not e.disabled and e.event_types ? 'budget.threshold'
    order by e.id
  loop
    for fraction in select f from jsonb_array_elements(endpoint.budget_thresholds) f loop
      basis := round((fraction #>> '{}')::numeric * 10000)::integer;
      mark := trunc(limit_nanos::numeric * basis / 10000);
      continue when not (spent_before < mark and spent_after >= mark);
      insert into webhook_budget_marks (endpoint_id, budget_id, period_start, threshold_bp)
      values (endpoint.id, budget, period, basis)
      on conflict do nothing;
      continue when not found;
      event_id := 'msg_' || replace(gen_random_uuid()::text, '-', '');
      insert into webhook_events (id, organization_id, type, payload) values (event_id, organization,
        'budget.threshold', jsonb_build_object('type', 'budget.threshold',
          'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'data', jsonb_build_object('organization_id', organization, 'budget', level, 'budget_id', budget,
            'threshold', fraction, 'limit_usd', (limit_nanos::numeric / 1000000000)::float8,
            'spent_usd', (spent_after::numeric / 1000000000)::float8,
            'resets_at', to_char(resets_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
            || case when key_id is null then '{}'::jsonb else jsonb_build_object('key_id', key_id) end));
      insert into webhook_deliveries (event_id, endpoint_id) values (event_id, endpoint.id);
      emitted := emitted + 1;
    end loop;
  end loop;
  return emitted;
end
$fn$`;

// budget_spend ids are `organization:<org>`, `<level>:<org>:<subject>`; the limit is read where each level keeps it.
const BUDGET_SPEND_TRIGGER_FUNCTION = sql`
create function budget_spend_threshold() returns trigger
language plpgsql as $fn$
declare
  level text := split_part(new.budget_id, ':', 1);
  organization text := split_part(new.budget_id, ':', 2);
  subject text := substr(new.budget_id, length(split_part(new.budget_id, ':', 1))
    + length(split_part(new.budget_id, ':', 2)) + 3);
  limit_nanos bigint;
  reset text;
begin
  if level = 'organization' then
    select o.budget_limit_nanos, o.budget_reset into limit_nanos, reset from organizations o where o.id = organization;
  elsif level = 'member' then
    select m.budget_limit_nanos, m.budget_reset into limit_nanos, reset from memberships m
    where m.organization_id = organization and m.user_id = subject;
  elsif level = 'session' then
    select s.budget_limit_nanos into limit_nanos from sessions s
    where s.organization_id = organization and s.session_hash = subject;
  elsif level = 'key' then
    select k.credit_limit_nanos, k.limit_reset into limit_nanos, reset from api_keys k
    where k.id = subject and k.user_id = organization;
  end if;
  perform webhook_budget_threshold(organization, level, new.budget_id, case when level = 'key' then subject end,
    limit_nanos, old.spent_nanos, new.spent_nanos, new.period_start,
    webhook_budget_period_end(reset, new.period_start));
  return null;
end
$fn$`;

// A key's own limit, kept in api_key_spend: the same emission at level `key`, named `key:<org>:<key id>`.
const KEY_SPEND_TRIGGER_FUNCTION = sql`
create function api_key_spend_threshold() returns trigger
language plpgsql as $fn$
declare
  k record;
begin
  select a.user_id, a.credit_limit_nanos, a.limit_reset into k from api_keys a where a.id = new.key_id;
  if not found or k.credit_limit_nanos is null then
    return null;
  end if;
  perform webhook_budget_threshold(k.user_id, 'key', 'key:' || k.user_id || ':' || new.key_id, new.key_id,
    k.credit_limit_nanos, old.spent_nanos, new.spent_nanos, new.period_start,
    webhook_budget_period_end(k.limit_reset, new.period_start));
  return null;
end
$fn$`;

// `Kysely<any>` on purpose: a migration describes the schema as it was, not the app's current types.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table generations add column member_user_id text`.execute(db);
  await sql`alter table usage_daily add column member_user_id text not null default ''`.execute(db);
  await sql`alter table usage_daily drop constraint usage_daily_pkey`.execute(db);
  await sql`alter table usage_daily add primary key (user_id, day, api_key_id, member_user_id, model, access_mode)`.execute(
    db,
  );
  await TOTALS_FUNCTION.execute(db);

  await sql`create table webhook_budget_marks (
  endpoint_id text not null references webhook_endpoints(id) on delete cascade,
  budget_id text not null,
  period_start timestamptz not null,
  threshold_bp integer not null,
  created_at timestamptz not null default now(),
  primary key (endpoint_id, budget_id, period_start, threshold_bp))`.execute(db);
  await PERIOD_END.execute(db);
  await EMIT.execute(db);
  await BUDGET_SPEND_TRIGGER_FUNCTION.execute(db);
  await sql`create trigger budget_spend_threshold after update of spent_nanos on budget_spend
  for each row when (new.spent_nanos > old.spent_nanos) execute function budget_spend_threshold()`.execute(db);
  await KEY_SPEND_TRIGGER_FUNCTION.execute(db);
  await sql`create trigger api_key_spend_threshold after update of spent_nanos on api_key_spend
  for each row when (new.spent_nanos > old.spent_nanos) execute function api_key_spend_threshold()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger api_key_spend_threshold on api_key_spend`.execute(db);
  await sql`drop function api_key_spend_threshold()`.execute(db);
  await sql`drop trigger budget_spend_threshold on budget_spend`.execute(db);
  await sql`drop function budget_spend_threshold()`.execute(db);
  await sql`drop function webhook_budget_threshold(text, text, text, text, bigint, bigint, bigint, timestamptz, timestamptz)`.execute(
    db,
  );
  await sql`drop function webhook_budget_period_end(text, timestamptz)`.execute(db);
  await sql`drop table webhook_budget_marks`.execute(db);

  // Members' rows fold back into one row per key (or account token) before the member leaves the primary key.
  await sql`with moved as (delete from usage_daily where member_user_id <> '' returning *)
  insert into usage_daily as u (day, user_id, api_key_id, member_user_id, model, access_mode, requests, prompt_tokens,
    completion_tokens, cached_tokens, cache_write_tokens, reasoning_tokens, cost_nanos, reference_cost_nanos,
    cache_hits, cache_saved_nanos)
  select day, user_id, api_key_id, '', model, access_mode, sum(requests), sum(prompt_tokens), sum(completion_tokens),
    sum(cached_tokens), sum(cache_write_tokens), sum(reasoning_tokens), sum(cost_nanos), sum(reference_cost_nanos),
    sum(cache_hits), sum(cache_saved_nanos)
  from moved group by day, user_id, api_key_id, model, access_mode
  on conflict (user_id, day, api_key_id, member_user_id, model, access_mode) do update set
    requests = u.requests + excluded.requests,
    prompt_tokens = u.prompt_tokens + excluded.prompt_tokens,
    completion_tokens = u.completion_tokens + excluded.completion_tokens,
    cached_tokens = u.cached_tokens + excluded.cached_tokens,
    cache_write_tokens = u.cache_write_tokens + excluded.cache_write_tokens,
    reasoning_tokens = u.reasoning_tokens + excluded.reasoning_tokens,
    cost_nanos = u.cost_nanos + excluded.cost_nanos,
    reference_cost_nanos = u.reference_cost_nanos + excluded.reference_cost_nanos,
    cache_hits = u.cache_hits + excluded.cache_hits,
    cache_saved_nanos = u.cache_saved_nanos + excluded.cache_saved_nanos`.execute(db);
  await sql`alter table usage_daily drop constraint usage_daily_pkey`.execute(db);
  await sql`alter table usage_daily drop column member_user_id`.execute(db);
  await sql`alter table usage_daily add primary key (user_id, day, api_key_id, model, access_mode)`.execute(db);
  await PREVIOUS_TOTALS_FUNCTION.execute(db);
  await sql`alter table generations drop column member_user_id`.execute(db);
}
