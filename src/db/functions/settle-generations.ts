import type { LivingFunction } from './living-function.js';

// Settles a batch of finished generations in one statement (src/repositories/settlements.ts sends it): inserts each
// record once (a repeat is skipped, so a batch may be sent again after a lost answer), debits credits in full (a
// shortfall is debt, never a write-off) from the lease or reservation that admitted the request, marks pass usage
// settled, adds each key's spend to its period, each budget's spend to its period (taken off the lease that held it)
// and each session's spend, requests, tokens and times. Locks are taken in one order (credit_accounts, credit_leases,
// api_key_spend, api_key_spend_holds, budget_spend, budget_leases, sessions), rows sorted, so batches never deadlock
// each other or the reservations. The spend updates fire the budget.threshold triggers (migration 0024), which queue
// each crossing in this transaction.
// A batch field the function does not list is ignored and one it lists that a batch lacks gets its default, so
// processes of the previous and the next release can settle side by side during an upgrade.
export const settleGenerations: LivingFunction = {
  name: 'settle_generations',
  parameters: 'batch json',
  returns: 'integer',
  revision: 5,
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
  -- Budget holds (with their record's cost) and session usage of the fresh records (migration 0016).
  budget_items jsonb;
  session_items jsonb;
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
      web_search_requests integer, tool_uses jsonb, budget_holds jsonb, session_hash text, byok boolean,
      guardrails jsonb, member_user_id text))
      with ordinality as r
  ), inserted as (
    insert into generations (
      id, user_id, api_key_id, access_mode, model, provider, upstream_model, upstream_id, streamed, finish_reason,
      status, http_status, error_code, error_message, prompt_tokens, completion_tokens, cached_tokens,
      cache_write_tokens, reasoning_tokens, cost_nanos, reference_cost_nanos, latency_ms, time_to_first_token_ms,
      app_title, app_referer, task_id, created_at, api_format, attempts, cache_hit, cache_saved_nanos, usage_estimated,
      web_search_requests, tool_uses, byok, guardrails, member_user_id)
    select
      r.id, r.user_id, r.api_key_id, r.access_mode, r.model, r.provider, r.upstream_model, r.upstream_id, r.streamed,
      r.finish_reason, r.status, r.http_status, r.error_code, r.error_message, coalesce(r.prompt_tokens, 0),
      coalesce(r.completion_tokens, 0), coalesce(r.cached_tokens, 0), coalesce(r.cache_write_tokens, 0),
      coalesce(r.reasoning_tokens, 0), coalesce(r.cost_nanos, 0), r.reference_cost_nanos, r.latency_ms,
      r.time_to_first_token_ms, r.app_title, r.app_referer, r.task_id, coalesce(r.created_at, now()),
      coalesce(r.api_format, 'chat_completions'), r.attempts, coalesce(r.cache_hit, false),
      coalesce(r.cache_saved_nanos, 0), coalesce(r.usage_estimated, false), coalesce(r.web_search_requests, 0),
      r.tool_uses, coalesce(r.byok, false), r.guardrails, r.member_user_id
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
    coalesce(array_agg(s.key_spend_holder) filter (where s.key_spend_period is not null), '{}'),
    coalesce(jsonb_agg(jsonb_build_object('c', coalesce(s.cost_nanos, 0), 'b', s.budget_holds))
      filter (where s.budget_holds is not null), '[]'::jsonb),
    coalesce(jsonb_agg(jsonb_build_object('o', s.user_id, 's', s.session_hash, 'c', coalesce(s.cost_nanos, 0),
      'pt', coalesce(s.prompt_tokens, 0), 'ct', coalesce(s.completion_tokens, 0), 'kt', coalesce(s.cached_tokens, 0),
      'rt', coalesce(s.reasoning_tokens, 0), 't', coalesce(s.created_at, now())))
      filter (where s.session_hash is not null), '[]'::jsonb)
  into items, key_ids, key_periods, key_costs, key_helds, key_holders, budget_items, session_items
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

  if jsonb_array_length(budget_items) > 0 then
    -- After the key spend rows: budget_spend rows, then budget_leases rows, each sorted (byte order of the ids, as
    -- the gateway sorts them when it locks periods itself: src/repositories/budget-leases.ts).
    perform 1 from budget_spend s
    where (s.budget_id, s.period_start) in (
      select e.b, e.p from jsonb_array_elements(budget_items) i,
        jsonb_to_recordset(i -> 'b') as e(b text, p timestamptz, n bigint, h text))
    order by s.budget_id collate "C", s.period_start
    for update;
    perform 1 from budget_leases l
    where (l.budget_id, l.period_start, l.holder) in (
      select e.b, e.p, e.h from jsonb_array_elements(budget_items) i,
        jsonb_to_recordset(i -> 'b') as e(b text, p timestamptz, n bigint, h text)
      where e.h is not null)
    order by l.budget_id collate "C", l.period_start, l.holder
    for update;
    -- Each holder's lease gives up what its records cost, never more than it still holds (a lease reclaimed meanwhile
    -- was given back whole); a hold without a holder is released from the period itself. Each period's spend grows
    -- by its records' whole cost (a cost above the upper bound may take it past the limit: the next request is
    -- refused until the period resets).
    with holds as (
      select e.b, e.p, e.h, e.n, (i ->> 'c')::bigint as cost
      from jsonb_array_elements(budget_items) i,
        jsonb_to_recordset(i -> 'b') as e(b text, p timestamptz, n bigint, h text)
    ), per_holder as (
      select h.b, h.p, h.h, sum(h.cost)::bigint as cost, sum(h.n)::bigint as held
      from holds h group by h.b, h.p, h.h
    ), released as (
      select ph.b, ph.p, ph.h, ph.cost,
        case when ph.h is null then ph.held else least(ph.cost, coalesce(l.amount_nanos, 0)) end as released
      from per_holder ph
      left join budget_leases l on l.budget_id = ph.b and l.period_start = ph.p and l.holder = ph.h
    ), leases as (
      update budget_leases l
      set amount_nanos = l.amount_nanos - r.released
      from released r
      where r.h is not null and r.released > 0 and l.budget_id = r.b and l.period_start = r.p and l.holder = r.h
    )
    update budget_spend s
    set spent_nanos = s.spent_nanos + k.cost, leased_nanos = greatest(s.leased_nanos - k.released, 0)
    from (select r.b, r.p, sum(r.cost)::bigint as cost, sum(r.released)::bigint as released
          from released r group by r.b, r.p) k
    where s.budget_id = k.b and s.period_start = k.p;
  end if;

  if jsonb_array_length(session_items) > 0 then
    insert into sessions as x (organization_id, session_hash, spent_nanos, requests, prompt_tokens, completion_tokens,
      cached_tokens, reasoning_tokens, first_request_at, last_request_at)
    select u.o, u.s, sum(u.c), count(*), sum(u.pt), sum(u.ct), sum(u.kt), sum(u.rt), min(u.t), max(u.t)
    from jsonb_to_recordset(session_items)
      as u(o text, s text, c bigint, pt bigint, ct bigint, kt bigint, rt bigint, t timestamptz)
    -- An organization deleted while its request ran has no sessions left to count in.
    where exists (select 1 from organizations o where o.id = u.o)
    group by u.o, u.s
    order by u.o collate "C", u.s collate "C"
    on conflict (organization_id, session_hash) do update
    set spent_nanos = x.spent_nanos + excluded.spent_nanos,
      requests = x.requests + excluded.requests,
      prompt_tokens = x.prompt_tokens + excluded.prompt_tokens,
      completion_tokens = x.completion_tokens + excluded.completion_tokens,
      cached_tokens = x.cached_tokens + excluded.cached_tokens,
      reasoning_tokens = x.reasoning_tokens + excluded.reasoning_tokens,
      first_request_at = least(coalesce(x.first_request_at, excluded.first_request_at), excluded.first_request_at),
      last_request_at = greatest(coalesce(x.last_request_at, excluded.last_request_at), excluded.last_request_at);
  end if;

  return cardinality(items);
end
`,
};
