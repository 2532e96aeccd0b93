import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// Budgets above a key's own limit: one on the organization and one on each membership (limit in nano-USD and a UTC
// reset period, both null: no budget), and one on a session, a conversation named by the client (its key hashed with
// the organization id, never stored raw). Each budget's spend lives per reset period in budget_spend, so a new
// period starts at zero on every instance without coordination. Gateway processes admit against leases of a
// period's remaining amount (budget_leases, one row per holder), renewed by their heartbeat and reclaimed from a
// process that stopped renewing them, as credit leases are. Lock order of every writer: budget_spend rows (by
// budget, period), then budget_leases rows, then sessions rows.

const RESETS = `('daily', 'weekly', 'monthly')`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['organizations', 'memberships']) {
    await sql
      .raw(`alter table ${table} add column budget_limit_nanos bigint
  constraint ${table}_budget_limit_ck check (budget_limit_nanos >= 0),
  add column budget_reset text constraint ${table}_budget_reset_ck check (budget_reset in ${RESETS})`)
      .execute(db);
  }
  // Cached principals carry their organization's budget: a change asks every gateway to forget them.
  await sql`create trigger organizations_notify_credential_change after update or delete on organizations
  for each row execute function modelgate_notify_credential_change()`.execute(db);
  await sql`create table budget_spend (
  budget_id text not null,
  period_start timestamptz not null,
  spent_nanos bigint not null default 0,
  leased_nanos bigint not null default 0,
  primary key (budget_id, period_start))`.execute(db);
  await sql`create table budget_leases (
  budget_id text not null,
  period_start timestamptz not null,
  holder text not null,
  amount_nanos bigint not null default 0,
  renewed_at timestamptz not null default now(),
  primary key (budget_id, period_start, holder))`.execute(db);
  await sql`create index budget_leases_holder_idx on budget_leases (holder)`.execute(db);
  await sql`create index budget_leases_renewed_idx on budget_leases (renewed_at)`.execute(db);
  await sql`create table sessions (
  organization_id text not null references organizations(id) on delete cascade,
  session_hash text not null,
  budget_limit_nanos bigint constraint sessions_budget_limit_ck check (budget_limit_nanos >= 0),
  spent_nanos bigint not null default 0,
  requests bigint not null default 0,
  prompt_tokens bigint not null default 0,
  completion_tokens bigint not null default 0,
  cached_tokens bigint not null default 0,
  reasoning_tokens bigint not null default 0,
  first_request_at timestamptz,
  last_request_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (organization_id, session_hash))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table sessions`.execute(db);
  await sql`drop table budget_leases`.execute(db);
  await sql`drop table budget_spend`.execute(db);
  await sql`drop trigger organizations_notify_credential_change on organizations`.execute(db);
  for (const table of ['organizations', 'memberships']) {
    await sql.raw(`alter table ${table} drop column budget_reset, drop column budget_limit_nanos`).execute(db);
  }
}
