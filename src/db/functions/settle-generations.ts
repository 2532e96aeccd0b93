import type { LivingFunction } from './living-function.js';

// Settles a batch of finished generations in one statement (src/repositories/settlements.ts sends it): inserts each
// record once (a repeat is skipped, so a batch may be sent again after a lost answer), debits credits in full (a
// shortfall is debt, never a write-off) from the lease or reservation that admitted the request, marks pass usage
// settled, and adds each key's spend to its period. Locks are taken in one order (credit_accounts, credit_leases,
// api_key_spend, api_key_spend_holds), rows sorted, so batches never deadlock each other or the reservations.
// A batch field the function does not list is ignored and one it lists that a batch lacks gets its default, so
// processes of the previous and the next release can settle side by side during an upgrade.
export const settleGenerations: LivingFunction = {
  name: 'settle_generations',
  parameters: 'batch json',
  returns: 'integer',
  revision: 1,
  body: `
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
  key_holders text[];
begin
  with source as materialized (
    select * from rows from (json_to_recordset(batch) as (
      id text, user_id text, api_key_id text, access_mode text, model text, provider text, upstream_model text,
      upstream_id text, streamed boolean, finish_reason text, status text, http_status integer, error_code text,
      error_message text, prompt_tokens integer, completion_tokens integer, cached_tokens integer,
      cache_write_tokens integer, reasoning_tokens integer, cost_nanos bigint, reference_cost_nanos bigint,
      latency_ms integer, time_to_first_token_ms integer, app_title text, app_referer text, task_id text,
      created_at timestamptz, settle text, reserved_nanos bigint, lease_holder text, pass_usage_id bigint,
      key_spend_period timestamptz, key_held_nanos bigint, api_format text, attempts jsonb,
      key_spend_holder text, cache_hit boolean, cache_saved_nanos bigint, usage_estimated boolean,
      web_search_requests integer, tool_uses jsonb))
      with ordinality as r
  ), inserted as (
    insert into generations (
      id, user_id, api_key_id, access_mode, model, provider, upstream_model, upstream_id, streamed, finish_reason,
      status, http_status, error_code, error_message, prompt_tokens, completion_tokens, cached_tokens,
      cache_write_tokens, reasoning_tokens, cost_nanos, reference_cost_nanos, latency_ms, time_to_first_token_ms,
      app_title, app_referer, task_id, created_at, api_format, attempts, cache_hit, cache_saved_nanos, usage_estimated,
      web_search_requests, tool_uses)
    select
      r.id, r.user_id, r.api_key_id, r.access_mode, r.model, r.provider, r.upstream_model, r.upstream_id, r.streamed,
      r.finish_reason, r.status, r.http_status, r.error_code, r.error_message, coalesce(r.prompt_tokens, 0),
      coalesce(r.completion_tokens, 0), coalesce(r.cached_tokens, 0), coalesce(r.cache_write_tokens, 0),
      coalesce(r.reasoning_tokens, 0), coalesce(r.cost_nanos, 0), r.reference_cost_nanos, r.latency_ms,
      r.time_to_first_token_ms, r.app_title, r.app_referer, r.task_id, coalesce(r.created_at, now()),
      coalesce(r.api_format, 'chat_completions'), r.attempts, coalesce(r.cache_hit, false),
      coalesce(r.cache_saved_nanos, 0), coalesce(r.usage_estimated, false), coalesce(r.web_search_requests, 0),
      r.tool_uses
    from source r
    -- A record listed twice is inserted as its first listing, the one kept in items below.
    order by r.ordinality
    on conflict (id) do nothing
    returning generations.id
  )
  select coalesce(array_agg(row(s.ordinality, s.id, s.user_id, s.settle, s.reserved_nanos, coalesce(s.cost_nanos, 0),
      s.lease_holder, s.pass_usage_id, s.reference_cost_nanos)::settlement_item order by s.user_id, s.ordinality),
      '{}'),
    coalesce(array_agg(s.api_key_id) filter (where s.key_spend_period is not null), '{}'),
    coalesce(array_agg(s.key_spend_period) filter (where s.key_spend_period is not null), '{}'),
    coalesce(array_agg(coalesce(s.cost_nanos, 0)) filter (where s.key_spend_period is not null), '{}'),
    coalesce(array_agg(coalesce(s.key_held_nanos, 0)) filter (where s.key_spend_period is not null), '{}'),
    coalesce(array_agg(s.key_spend_holder) filter (where s.key_spend_period is not null), '{}')
  into items, key_ids, key_periods, key_costs, key_helds, key_holders
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

      for item in
        select * from unnest(items) i where i.settle = 'credits' and i.user_id = account.user_id order by i.n
      loop
        -- The whole cost, whatever is left: a shortfall becomes debt (a negative balance), never a write-off.
        debit := item.cost_nanos;
        if item.lease_holder is not null then
          own_hold := coalesce((leases ->> item.lease_holder)::bigint, 0);
          consumed := least(debit, own_hold);
          reserved := greatest(reserved - consumed, 0);
          if leases ? item.lease_holder then
            leases := jsonb_set(leases, array[item.lease_holder], to_jsonb(own_hold - consumed));
          end if;
        else
          reserved := greatest(reserved - coalesce(item.reserved_nanos, 0), 0);
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
      set balance_nanos = balance, reserved_nanos = reserved, total_used_nanos = total_used_nanos + used,
        updated_at = now()
      where user_id = account.user_id;
      update credit_leases l
      set amount_nanos = (leases ->> l.holder)::bigint
      where l.user_id = account.user_id and leases ? l.holder and l.amount_nanos <> (leases ->> l.holder)::bigint;
      -- In debt beyond what is reserved: the leases of this user are no longer backed by money. Every holder is
      -- asked (at commit) to give back the part no request of its own holds, as a recall does
      -- (src/billing/lease-recalls.ts), so no instance admits another paid request against them. One message per
      -- holder: a payload stays small.
      if balance < reserved then
        perform pg_notify('modelgate_credit_leases',
          json_build_object('t', 'recall', 'u', l.user_id, 'h', json_build_array(l.holder))::text)
        from credit_leases l
        where l.user_id = account.user_id and l.amount_nanos > 0;
      end if;
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
    where i.settle = 'pass' and coalesce(i.reference_cost_nanos, 0) <= 0 and p.id = i.pass_usage_id
      and p.status = 'reserved';
  end if;

  if cardinality(key_ids) > 0 then
    -- Last in the lock order (credit_accounts, credit_leases, api_key_spend, then api_key_spend_holds), rows
    -- sorted: no deadlock between batches, nor with reservations and reclamation
    -- (src/repositories/api-key-spend*.ts).
    perform 1 from api_key_spend s
    where (s.key_id, s.period_start) in (select * from unnest(key_ids, key_periods))
    order by s.key_id, s.period_start
    for update;
    perform 1 from api_key_spend_holds h
    where (h.key_id, h.period_start, h.holder) in (
      select * from unnest(key_ids, key_periods, key_holders) u(key_id, period_start, holder)
      where u.holder is not null)
    order by h.key_id, h.period_start, h.holder
    for update;
    -- What each holder's records give back: their holds, but never more than the holder's row still holds (a row
    -- reclaimed meanwhile, its holder having looked dead, was already given back). Records without a holder (a
    -- process of the previous release) release their holds as before.
    with per_holder as (
      select u.key_id, u.period_start, u.holder, sum(u.cost)::bigint as cost, sum(u.held)::bigint as held
      from unnest(key_ids, key_periods, key_holders, key_costs, key_helds)
        as u(key_id, period_start, holder, cost, held)
      group by u.key_id, u.period_start, u.holder
    ), released as (
      select p.key_id, p.period_start, p.holder, p.cost,
        case when p.holder is null then p.held else least(p.held, coalesce(h.held_nanos, 0)) end as released
      from per_holder p
      left join api_key_spend_holds h
        on h.key_id = p.key_id and h.period_start = p.period_start and h.holder = p.holder
    ), holds as (
      update api_key_spend_holds h
      set held_nanos = h.held_nanos - r.released
      from released r
      where r.released > 0 and h.key_id = r.key_id and h.period_start = r.period_start and h.holder = r.holder
    )
    -- Each key's spend grows by its records' whole cost (a cost above the request's upper bound is charged to the
    -- limit too, which the key's spend may then pass: its next request is refused), and the holds are released.
    update api_key_spend s
    set spent_nanos = s.spent_nanos + k.cost,
        reserved_nanos = greatest(s.reserved_nanos - k.released, 0)
    from (
      select r.key_id, r.period_start, sum(r.cost)::bigint as cost, sum(r.released)::bigint as released
      from released r
      group by r.key_id, r.period_start
    ) k
    where s.key_id = k.key_id and s.period_start = k.period_start;
  end if;

  return cardinality(items);
end
`,
};
