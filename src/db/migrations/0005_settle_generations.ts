import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released (a later change is a new
// migration with `create or replace function`).
//
// Settlement of a batch of finished requests in one statement: the generation records, each credits request's
// single debit (paid out of the process's lease when it was admitted against one), and each pass request's quota
// reservation turned into its reference cost. Done in the database because the batch ran as ~8 round trips before
// (begin, insert, two locks, ledger, one update per account and per lease, commit): with every socket write on the
// same two cores as the requests, those round trips were most of the gateway's settlement cost.
//
// `batch` is a JSON array; each element is a generation row (the columns of `generations`, money as strings)
// plus how to settle it:
//   settle          'credits' | 'pass' | null (free: the record only)
//   reserved_nanos  credits without a lease: the request's own hold, released here
//   lease_holder    credits admitted against this holder's lease: the cost is paid out of the lease
//   pass_usage_id   pass: the reservation row that becomes the record's reference cost (dropped when it is 0)
// Only records new to the table are settled, each once, so a repeated batch changes nothing. Returns how many
// records were new.
//
// The rule for a debit (as before, in TypeScript): the cost, but never money other requests hold, so their settles
// still succeed and the balance never goes negative:
//   debit = least(cost, greatest(balance - greatest(reserved - own_hold, 0), 0))
// where own_hold is the lease (leased) or the request's hold (not leased). A lease reclaimed meanwhile covers
// nothing (own_hold 0). Lock order of every writer: credit_accounts rows by user id, then credit_leases rows.
const SETTLE_GENERATIONS = sql`
create or replace function settle_generations(batch jsonb) returns integer
language plpgsql as $fn$
declare
  fresh text[];
  unsettled text[];
  account record;
  item record;
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
begin
  with inserted as (
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
    from jsonb_to_recordset(batch) as r(
      id text, user_id text, api_key_id text, access_mode text, model text, provider text, upstream_model text,
      upstream_id text, streamed boolean, finish_reason text, status text, http_status integer, error_code text,
      error_message text, prompt_tokens integer, completion_tokens integer, cached_tokens integer,
      cache_write_tokens integer, reasoning_tokens integer, cost_nanos bigint, reference_cost_nanos bigint,
      latency_ms integer, time_to_first_token_ms integer, app_title text, app_referer text, task_id text,
      created_at timestamptz)
    on conflict (id) do nothing
    returning generations.id
  )
  select coalesce(array_agg(inserted.id), '{}') into fresh from inserted;
  unsettled := fresh;

  perform 1 from credit_accounts a
  where a.user_id in (
    select s.user_id from jsonb_to_recordset(batch) as s(id text, user_id text, settle text)
    where s.settle = 'credits' and s.id = any(fresh))
  order by a.user_id
  for update;
  perform 1 from credit_leases l
  where (l.holder, l.user_id) in (
    select s.lease_holder, s.user_id from jsonb_to_recordset(batch) as s(id text, user_id text, settle text, lease_holder text)
    where s.settle = 'credits' and s.lease_holder is not null and s.id = any(fresh))
  order by l.user_id, l.holder
  for update;

  for account in
    select a.user_id, a.balance_nanos, a.reserved_nanos from credit_accounts a
    where a.user_id in (
      select s.user_id from jsonb_to_recordset(batch) as s(id text, user_id text, settle text)
      where s.settle = 'credits' and s.id = any(fresh))
    order by a.user_id
  loop
    balance := account.balance_nanos;
    reserved := account.reserved_nanos;
    used := 0;
    -- The leases this user's requests pay from (locked above; only those are written back).
    select coalesce(jsonb_object_agg(l.holder, l.amount_nanos), '{}') into leases
    from credit_leases l
    where l.user_id = account.user_id and l.holder in (
      select s.lease_holder from jsonb_to_recordset(batch) as s(id text, user_id text, settle text, lease_holder text)
      where s.settle = 'credits' and s.user_id = account.user_id and s.id = any(fresh));

    for item in
      select s.id, s.reserved_nanos, coalesce(s.cost_nanos, 0) as cost_nanos, s.lease_holder
      from jsonb_array_elements(batch) with ordinality as e(value, n),
        jsonb_to_record(e.value) as s(id text, user_id text, settle text, reserved_nanos bigint, cost_nanos bigint, lease_holder text)
      where s.settle = 'credits' and s.user_id = account.user_id and s.id = any(fresh)
      order by e.n
    loop
      -- The same record twice in one batch is settled once.
      continue when not (item.id = any(unsettled));
      unsettled := array_remove(unsettled, item.id);
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

  update pass_usage p
  set status = 'settled', generation_id = s.id, reference_cost_nanos = s.reference_cost_nanos
  from jsonb_to_recordset(batch) as s(id text, settle text, pass_usage_id bigint, reference_cost_nanos bigint)
  where s.settle = 'pass' and s.id = any(fresh) and s.reference_cost_nanos > 0
    and p.id = s.pass_usage_id and p.status = 'reserved';
  delete from pass_usage p
  using jsonb_to_recordset(batch) as s(id text, settle text, pass_usage_id bigint, reference_cost_nanos bigint)
  where s.settle = 'pass' and s.id = any(fresh) and coalesce(s.reference_cost_nanos, 0) <= 0
    and p.id = s.pass_usage_id and p.status = 'reserved';

  return coalesce(array_length(fresh, 1), 0);
end
$fn$`;

export async function up(db: Kysely<any>): Promise<void> {
  await SETTLE_GENERATIONS.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists settle_generations(jsonb)`.execute(db);
}
