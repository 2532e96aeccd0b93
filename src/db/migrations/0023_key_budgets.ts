import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// A key's USD limit becomes a budget like the organization's and the member's: its spend per reset period lives in
// budget_spend under the id `key:<organization>:<key id>` and gateway processes lease it (budget_leases). Each key's
// spend of every period is copied from api_key_spend, which this release no longer writes. A process of the
// previous release, still running during a rolling upgrade, keeps settling its keys' costs into api_key_spend: a
// trigger adds what each of its statements adds to a key's spend to the key's budget too, in the same transaction,
// so no cost is counted in one table and missed in the other, whatever the order of the copy and the settlements.
// A budget's limit lowered, its reset changed, or its key disabled or deleted (by any process: the API, the CLI)
// tells every gateway on the credit lease channel, at commit, to give back what it leases of that budget
// (src/billing/lease-recalls.ts), so none keeps admitting against a lease taken under the old limit.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`insert into budget_spend (budget_id, period_start, spent_nanos)
  select c.budget_id, c.period_start, c.spent_nanos from (
    select 'key:' || k.user_id || ':' || s.key_id as budget_id, s.period_start, s.spent_nanos
    from api_key_spend s join api_keys k on k.id = s.key_id) c
  order by c.budget_id collate "C", c.period_start
  on conflict (budget_id, period_start) do update set spent_nanos = excluded.spent_nanos`.execute(db);
  // Statement-level with transition tables: the budget rows are written (and locked) in one sorted pass, the lock
  // order of every budget_spend writer.
  await sql`create function modelgate_key_spend_to_budget() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    -- A period started at what the key spent before its limit (a seed): the budget's own seed counted the same.
    insert into budget_spend (budget_id, period_start, spent_nanos)
    select c.budget_id, c.period_start, c.spent_nanos from (
      select 'key:' || k.user_id || ':' || n.key_id as budget_id, n.period_start, n.spent_nanos
      from added n join api_keys k on k.id = n.key_id
      where n.spent_nanos <> 0) c
    order by c.budget_id collate "C", c.period_start
    on conflict (budget_id, period_start) do nothing;
  else
    insert into budget_spend as b (budget_id, period_start, spent_nanos)
    select c.budget_id, c.period_start, sum(c.added)::bigint from (
      select 'key:' || k.user_id || ':' || n.key_id as budget_id, n.period_start, n.spent_nanos - o.spent_nanos as added
      from added n
      join removed o on o.key_id = n.key_id and o.period_start = n.period_start
      join api_keys k on k.id = n.key_id
      where n.spent_nanos <> o.spent_nanos) c
    group by c.budget_id, c.period_start
    order by c.budget_id collate "C", c.period_start
    on conflict (budget_id, period_start) do update set spent_nanos = b.spent_nanos + excluded.spent_nanos;
  end if;
  return null;
end
$$`.execute(db);
  await sql`create trigger api_key_spend_to_budget_insert after insert on api_key_spend
  referencing new table as added for each statement execute function modelgate_key_spend_to_budget()`.execute(db);
  await sql`create trigger api_key_spend_to_budget_update after update on api_key_spend
  referencing old table as removed new table as added
  for each statement execute function modelgate_key_spend_to_budget()`.execute(db);
  await sql`create function modelgate_notify_budget_change() returns trigger language plpgsql as $$
declare
  budget text;
begin
  if tg_table_name = 'api_keys' then
    if old.credit_limit_nanos is null or (tg_op = 'UPDATE'
        and coalesce(new.credit_limit_nanos, old.credit_limit_nanos) >= old.credit_limit_nanos
        and new.limit_reset is not distinct from old.limit_reset
        and not (new.disabled and not old.disabled)
        and (new.deleted_at is null) = (old.deleted_at is null)) then
      return null;
    end if;
    budget := 'key:' || old.user_id || ':' || old.id;
  else
    if old.budget_limit_nanos is null or (tg_op = 'UPDATE'
        and coalesce(new.budget_limit_nanos, old.budget_limit_nanos) >= old.budget_limit_nanos
        and new.budget_reset is not distinct from old.budget_reset) then
      return null;
    end if;
    -- Separate statements: each names only the columns of its own table.
    if tg_table_name = 'organizations' then
      budget := 'organization:' || old.id;
    else
      budget := 'member:' || old.organization_id || ':' || old.user_id;
    end if;
  end if;
  perform pg_notify('modelgate_credit_leases', json_build_object('t', 'budget', 'b', budget)::text);
  return null;
end
$$`.execute(db);
  for (const table of ['api_keys', 'organizations', 'memberships'])
    await sql
      .raw(`create trigger ${table}_notify_budget_change after update or delete on ${table}
  for each row execute function modelgate_notify_budget_change()`)
      .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['memberships', 'organizations', 'api_keys'])
    await sql.raw(`drop trigger ${table}_notify_budget_change on ${table}`).execute(db);
  await sql`drop function modelgate_notify_budget_change()`.execute(db);
  await sql`drop trigger api_key_spend_to_budget_update on api_key_spend`.execute(db);
  await sql`drop trigger api_key_spend_to_budget_insert on api_key_spend`.execute(db);
  await sql`drop function modelgate_key_spend_to_budget()`.execute(db);
  await sql`delete from budget_leases where budget_id like 'key:%'`.execute(db);
  await sql`delete from budget_spend where budget_id like 'key:%'`.execute(db);
}
