import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// An organization's own provider keys (bring your own key).
// - provider_keys: one key per organization and catalog provider, sealed (envelope encryption: the ciphertext names
//   the master key that wraps its data key); `key_hint` is what listings show of it (`sk-…a1b2`); `mode` says when
//   routing uses it instead of (or before, or after) the operator's key.
// - Gateways cache an organization's keys in memory, so every change announces the organization's id on the channel
//   `modelgate_provider_keys` (sent at commit, not on rollback).
// - generations.byok: the request was served on the organization's own key (charged the BYOK fee, not the price).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table provider_keys (
  organization_id text not null references organizations(id) on delete cascade,
  provider text not null,
  key_ciphertext text not null,
  key_hint text not null,
  mode text not null constraint provider_keys_mode_ck check (mode in ('prefer', 'only', 'fallback')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, provider))`.execute(db);

  await sql`
    create function modelgate_notify_provider_key_change() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('modelgate_provider_keys', coalesce(new.organization_id, old.organization_id));
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger provider_keys_notify_change
    after insert or update or delete on provider_keys
    for each row execute function modelgate_notify_provider_key_change()`.execute(db);

  await sql`alter table generations add column byok boolean not null default false`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table generations drop column byok`.execute(db);
  await sql`drop trigger provider_keys_notify_change on provider_keys`.execute(db);
  await sql`drop function modelgate_notify_provider_key_change()`.execute(db);
  await sql`drop table provider_keys`.execute(db);
}
