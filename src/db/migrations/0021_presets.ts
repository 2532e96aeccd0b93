import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// An organization's presets (`model: "@preset/<slug>"`): each save of a slug is a new version, never changed after;
// requests name the latest version or pin one. Gateways cache an organization's presets in memory, so every change
// announces the organization's id on the channel `modelgate_presets` (sent at commit, not on rollback).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table presets (
  organization_id text not null references organizations(id) on delete cascade,
  slug text not null,
  version integer not null constraint presets_version_ck check (version >= 1),
  description text,
  preset jsonb not null,
  created_at timestamptz not null default now(),
  primary key (organization_id, slug, version))`.execute(db);

  await sql`
    create function modelgate_notify_preset_change() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('modelgate_presets', coalesce(new.organization_id, old.organization_id));
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger presets_notify_change
    after insert or update or delete on presets
    for each row execute function modelgate_notify_preset_change()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger presets_notify_change on presets`.execute(db);
  await sql`drop function modelgate_notify_preset_change()`.execute(db);
  await sql`drop table presets`.execute(db);
}
