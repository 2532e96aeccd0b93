import { sql, type Kysely } from 'kysely';
import * as previous from './0006_settle_generations_single_pass.js';

// Frozen in time: never import app code here or change this file once released.
//
// Per-key spend limits, key policies and admin keys.
//
// api_keys gains what a key may do besides its rate limits: `limit_reset` (the USD limit in the existing
// `credit_limit_nanos` column resets at UTC day, ISO week or month boundaries; null: never), `expires_at`,
// `disabled` and `allowed_models` (a JSON array of model ids and `provider/*` patterns; null: all models). Their
// changes already NOTIFY the credential channel through migration 0003's trigger, so caches drop the key at once.
//
// api_key_spend holds, per limited key and reset period (`period_start`; 1970-01-01 for a key that never resets),
// what its requests spent and what requests in flight hold. Admission reserves with one conditional upsert
// (`spent + reserved + amount <= limit`), so concurrent requests on any number of instances never together pass
// the limit; settle_generations (below) turns the hold into the real cost in the same statement that writes the
// record and its debit, so a key's spend is counted exactly once with its generation.
//
// admin_keys: credentials of the operator API, a table of their own so that no admin key can ever be taken for a
// user's key (and no user credential for an admin key); hashed like every credential, and NOTIFYing their hash
// on change like api_keys.
//
// settle_generations(json) is 0006's function plus the key-spend step: the batch elements may carry
// `key_spend_period` and `key_held_nanos` (json_to_recordset ignored unknown keys before, so a previous-release
// process and this function agree on the old fields). The jsonb overload of 0006 calls this one and stays.

/** Exported for 0008's down, which puts this version back. */
export const SETTLE_GENERATIONS_WITH_KEY_SPEND = sql`
create or replace function settle_generations(batch json) returns integer
language plpgsql as $fn$
declare
  -- The batch's records new to the table, each once, by user then batch position.
  items settlement_item[];
  item settlement_item;
  credit_users text[];
  account record;
  leases jsonb;
  own_hold bigint;
  debit bigint;
  consumed bigint;
  balance bigint;
  reserved bigint;
  used bigint;
  ledger_users text[] := '{}';
  ledger_generations text[] := '{}';
  ledger_amounts bigint[] := '{}';
  -- Key spend of the fresh credits records that reserved against their key's limit (one entry per record).
  key_ids text[];
  key_periods timestamptz[];
  key_costs bigint[];
  key_helds bigint[];
begin
  with source as materialized (
    select * from rows from (json_to_recordset(batch) as (
      id text, user_id text, api_key_id text, access_mode text, model text, provider text, upstream_model text,
      upstream_id text, streamed boolean, finish_reason text, status text, http_status integer, error_code text,
      error_message text, prompt_tokens integer, completion_tokens integer, cached_tokens integer,
      cache_write_tokens integer, reasoning_tokens integer, cost_nanos bigint, reference_cost_nanos bigint,
      latency_ms integer, time_to_first_token_ms integer, app_title text, app_referer text, task_id text,
      created_at timestamptz, settle text, reserved_nanos bigint, lease_holder text, pass_usage_id bigint,
      key_spend_period timestamptz, key_held_nanos bigint))
      with ordinality as r
  ), inserted as (
    insert into generations (
      id, user_id, api_key_id, access_mode, model, provider, upstream_model, upstream_id, streamed, finish_reason,
      status, http_status, error_code, error_message, prompt_tokens, completion_tokens, cached_tokens,
      cache_write_tokens, reasoning_tokens, cost_nanos, reference_cost_nanos, latency_ms, time_to_first_token_ms,
      app_title, app_referer, task_id, created_at)
    select
      r.id, r.user_id, r.api_key_id, r.access_mode, r.model, r.provider, r.upstream_model, r.upstream_id, r.streamed,
      r.finish_reason, r.status, r.http_status, r.error_code, r.error_message, coalesce(r.prompt_tokens, 0),
      coalesce(r.completion_tokens, 0), coalesce(r.cached_tokens, 0), coalesce(r.cache_write_tokens, 0),
      coalesce(r.reasoning_tokens, 0), coalesce(r.cost_nanos, 0), r.reference_cost_nanos, r.latency_ms,
      r.time_to_first_token_ms, r.app_title, r.app_referer, r.task_id, coalesce(r.created_at, now())
    from source r
    -- A record listed twice is inserted as its first listing, the one kept in items below.
    order by r.ordinality
    on conflict (id) do nothing
    returning generations.id
  )
  select coalesce(array_agg(row(s.ordinality, s.id, s.user_id, s.settle, s.reserved_nanos, coalesce(s.cost_nanos, 0),
      s.lease_holder, s.pass_usage_id, s.reference_cost_nanos)::settlement_item order by s.user_id, s.ordinality), '{}'),
    coalesce(array_agg(s.api_key_id) filter (where s.key_spend_period is not null), '{}'),
    coalesce(array_agg(s.key_spend_period) filter (where s.key_spend_period is not null), '{}'),
    coalesce(array_agg(coalesce(s.cost_nanos, 0)) filter (where s.key_spend_period is not null), '{}'),
    coalesce(array_agg(coalesce(s.key_held_nanos, 0)) filter (where s.key_spend_period is not null), '{}')
  into items, key_ids, key_periods, key_costs, key_helds
  from (select distinct on (source.id) source.* from source join inserted on inserted.id = source.id
        order by source.id, source.ordinality) s;

  credit_users := array(select distinct i.user_id from unnest(items) i where i.settle = 'credits' order by 1);
  if cardinality(credit_users) > 0 then
    perform 1 from credit_accounts a where a.user_id = any(credit_users) order by a.user_id for update;
    perform 1 from credit_leases l
    where (l.holder, l.user_id) in (
      select i.lease_holder, i.user_id from unnest(items) i where i.settle = 'credits' and i.lease_holder is not null)
    order by l.user_id, l.holder
    for update;

    for account in
      select a.user_id, a.balance_nanos, a.reserved_nanos from credit_accounts a
      where a.user_id = any(credit_users) order by a.user_id
    loop
      balance := account.balance_nanos;
      reserved := account.reserved_nanos;
      used := 0;
      -- The leases this user's requests pay from (locked above; only those are written back).
      select coalesce(jsonb_object_agg(l.holder, l.amount_nanos), '{}') into leases
      from credit_leases l
      where l.user_id = account.user_id and l.holder in (
        select i.lease_holder from unnest(items) i where i.settle = 'credits' and i.user_id = account.user_id);

      for item in select * from unnest(items) i where i.settle = 'credits' and i.user_id = account.user_id order by i.n loop
        if item.lease_holder is not null then
          own_hold := coalesce((leases ->> item.lease_holder)::bigint, 0);
          debit := least(item.cost_nanos, greatest(balance - greatest(reserved - own_hold, 0), 0));
          consumed := least(debit, own_hold);
          reserved := greatest(reserved - consumed, 0);
          if leases ? item.lease_holder then
            leases := jsonb_set(leases, array[item.lease_holder], to_jsonb(own_hold - consumed));
          end if;
        else
          own_hold := coalesce(item.reserved_nanos, 0);
          debit := least(item.cost_nanos, greatest(balance - greatest(reserved - own_hold, 0), 0));
          reserved := greatest(reserved - own_hold, 0);
        end if;
        balance := balance - debit;
        used := used + debit;
        if item.cost_nanos > 0 then
          ledger_users := ledger_users || account.user_id;
          ledger_generations := ledger_generations || item.id;
          ledger_amounts := ledger_amounts || (-debit);
        end if;
      end loop;

      update credit_accounts
      set balance_nanos = balance, reserved_nanos = reserved, total_used_nanos = total_used_nanos + used, updated_at = now()
      where user_id = account.user_id;
      update credit_leases l
      set amount_nanos = (leases ->> l.holder)::bigint
      where l.user_id = account.user_id and leases ? l.holder and l.amount_nanos <> (leases ->> l.holder)::bigint;
    end loop;

    insert into credit_ledger (user_id, kind, amount_nanos, generation_id)
    select d.user_id, 'debit', d.amount_nanos, d.generation_id
    from unnest(ledger_users, ledger_amounts, ledger_generations) as d(user_id, amount_nanos, generation_id);
  end if;

  if exists (select 1 from unnest(items) i where i.settle = 'pass') then
    update pass_usage p
    set status = 'settled', generation_id = i.id, reference_cost_nanos = i.reference_cost_nanos
    from unnest(items) i
    where i.settle = 'pass' and i.reference_cost_nanos > 0 and p.id = i.pass_usage_id and p.status = 'reserved';
    delete from pass_usage p
    using unnest(items) i
    where i.settle = 'pass' and coalesce(i.reference_cost_nanos, 0) <= 0 and p.id = i.pass_usage_id and p.status = 'reserved';
  end if;

  if cardinality(key_ids) > 0 then
    -- Last in the lock order (credit_accounts, credit_leases, then api_key_spend), rows sorted: no deadlock
    -- between batches. Each key's spend grows by its records' cost, clamped so that it never exceeds the key's
    -- limit given the other requests' holds (a cost above its own upper bound is not charged to the limit), and
    -- the records' holds are released.
    perform 1 from api_key_spend s
    where (s.key_id, s.period_start) in (select * from unnest(key_ids, key_periods))
    order by s.key_id, s.period_start
    for update;
    update api_key_spend s
    set spent_nanos = s.spent_nanos + least(k.cost, greatest(
          coalesce(a.credit_limit_nanos, s.spent_nanos + k.cost) - s.spent_nanos - greatest(s.reserved_nanos - k.held, 0), 0)),
        reserved_nanos = greatest(s.reserved_nanos - k.held, 0)
    from (
      select u.key_id, u.period_start, sum(u.cost)::bigint as cost, sum(u.held)::bigint as held
      from unnest(key_ids, key_periods, key_costs, key_helds) as u(key_id, period_start, cost, held)
      group by u.key_id, u.period_start
    ) k
    join api_keys a on a.id = k.key_id
    where s.key_id = k.key_id and s.period_start = k.period_start;
  end if;

  return cardinality(items);
end
$fn$`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table api_keys
    add column limit_reset text check (limit_reset in ('daily', 'weekly', 'monthly')),
    add column expires_at timestamptz,
    add column disabled boolean not null default false,
    add column allowed_models jsonb`.execute(db);
  await sql`create table api_key_spend (
    key_id text not null references api_keys(id),
    period_start timestamptz not null,
    spent_nanos bigint not null default 0 check (spent_nanos >= 0),
    reserved_nanos bigint not null default 0 check (reserved_nanos >= 0),
    primary key (key_id, period_start))`.execute(db);
  await sql`create table admin_keys (
    id text primary key,
    name text not null,
    key_hash text not null unique,
    display_prefix text not null,
    created_at timestamptz not null default now(),
    last_used_at timestamptz,
    deleted_at timestamptz)`.execute(db);
  await sql`
    create trigger admin_keys_notify_credential_change
    after update or delete on admin_keys
    for each row execute function modelgate_notify_credential_change('key_hash')`.execute(db);
  await SETTLE_GENERATIONS_WITH_KEY_SPEND.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // 0006's own down then up puts its function back (it drops and recreates the json overload and its type).
  await previous.down(db);
  await previous.up(db);
  await sql`drop table admin_keys`.execute(db);
  await sql`drop table api_key_spend`.execute(db);
  await sql`alter table api_keys drop column limit_reset, drop column expires_at, drop column disabled, drop column allowed_models`.execute(
    db,
  );
}
