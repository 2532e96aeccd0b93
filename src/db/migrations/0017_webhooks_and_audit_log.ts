import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// Webhooks per organization and the audit log of management actions.
// - webhook_endpoints: where an organization wants events; the signing secret is stored encrypted (or, without an
//   encryption key configured, as given; docs/webhooks.md), never hashed, since signing needs it in clear.
// - webhook_events: the durable outbox. An event row and one delivery row per subscribed endpoint are written in the
//   transaction of the change that caused them, so a crash loses none.
// - webhook_deliveries: one event to one endpoint; a deliverer claims due rows (FOR UPDATE SKIP LOCKED) and leases
//   them by moving next_attempt_at ahead, so two processes never send one delivery at once.
// - webhook_attempts: every try, with its answer, for GET .../deliveries.
// - audit_log: who (credential kind and id) did what to which target in which organization, before and after.
// - credit_accounts_credits_low: a trigger that writes `credits.low` events when a balance crosses below an endpoint's
//   threshold, in the transaction of the grant, adjustment or settlement that moved it (whoever wrote it).

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table webhook_endpoints (
  id text primary key,
  organization_id text not null references organizations(id) on delete cascade,
  url text not null,
  description text,
  event_types jsonb not null,
  budget_thresholds jsonb not null,
  credits_low_nanos bigint not null,
  secret_ciphertext text not null,
  disabled boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now())`.execute(db);
  await sql`create index webhook_endpoints_org_idx on webhook_endpoints (organization_id, created_at)`.execute(db);

  await sql`create table webhook_events (
  id text primary key,
  organization_id text not null references organizations(id) on delete cascade,
  type text not null,
  payload jsonb not null,
  created_at timestamptz not null default now())`.execute(db);
  await sql`create index webhook_events_created_idx on webhook_events (created_at)`.execute(db);

  await sql`create table webhook_deliveries (
  id bigint generated always as identity primary key,
  event_id text not null references webhook_events(id) on delete cascade,
  endpoint_id text not null references webhook_endpoints(id) on delete cascade,
  status text not null default 'pending' constraint webhook_deliveries_status_ck
    check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  unique (event_id, endpoint_id))`.execute(db);
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(
    db,
  );
  await sql`create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, id)`.execute(db);
  await sql`create index webhook_deliveries_finished_idx on webhook_deliveries (finished_at) where status <> 'pending'`.execute(
    db,
  );

  await sql`create table webhook_attempts (
  id bigint generated always as identity primary key,
  delivery_id bigint not null references webhook_deliveries(id) on delete cascade,
  attempt integer not null,
  started_at timestamptz not null,
  duration_ms integer not null,
  status_code integer,
  error text,
  next_attempt_at timestamptz)`.execute(db);
  await sql`create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, id)`.execute(db);

  await sql`create table audit_log (
  id bigint generated always as identity primary key,
  organization_id text,
  actor_kind text not null,
  actor_id text not null,
  action text not null,
  target_type text not null,
  target_id text not null,
  before jsonb,
  after jsonb,
  created_at timestamptz not null default now())`.execute(db);
  await sql`create index audit_log_org_idx on audit_log (organization_id, id)`.execute(db);
  await sql`create index audit_log_created_idx on audit_log (created_at)`.execute(db);

  // Once per crossing: only an update that takes the balance from at or above the threshold to below it fires.
  await sql`create function webhook_credits_low() returns trigger
language plpgsql as $fn$
declare
  endpoint record;
  event_id text;
begin
  for endpoint in
    select e.id, e.credits_low_nanos from webhook_endpoints e
    where e.organization_id = new.user_id and not e.disabled and e.event_types ? 'credits.low'
      and old.balance_nanos >= e.credits_low_nanos and new.balance_nanos < e.credits_low_nanos
  loop
    event_id := 'msg_' || replace(gen_random_uuid()::text, '-', '');
    insert into webhook_events (id, organization_id, type, payload) values (event_id, new.user_id, 'credits.low',
      jsonb_build_object('type', 'credits.low',
        'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'data', jsonb_build_object('organization_id', new.user_id,
          'balance_usd', (new.balance_nanos::numeric / 1000000000)::float8,
          'threshold_usd', (endpoint.credits_low_nanos::numeric / 1000000000)::float8)));
    insert into webhook_deliveries (event_id, endpoint_id) values (event_id, endpoint.id);
  end loop;
  return null;
end
$fn$`.execute(db);
  await sql`create trigger credit_accounts_credits_low after update of balance_nanos on credit_accounts
  for each row when (new.balance_nanos < old.balance_nanos) execute function webhook_credits_low()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger credit_accounts_credits_low on credit_accounts`.execute(db);
  await sql`drop function webhook_credits_low()`.execute(db);
  await sql`drop table audit_log`.execute(db);
  await sql`drop table webhook_attempts`.execute(db);
  await sql`drop table webhook_deliveries`.execute(db);
  await sql`drop table webhook_events`.execute(db);
  await sql`drop table webhook_endpoints`.execute(db);
}
