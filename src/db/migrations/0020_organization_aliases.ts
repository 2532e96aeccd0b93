import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// An organization's own names for catalog models ("our coding model"): each alias names one catalog model id. Cached
// principals carry their organization's aliases, so every change asks every gateway to forget cached principals
// (migration 0003's function without a hash column: '*'), as a change of an organization row does.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table organization_aliases (
  organization_id text not null references organizations(id) on delete cascade,
  name text not null,
  model text not null,
  description text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, name))`.execute(db);
  await sql`create trigger organization_aliases_notify_credential_change
  after insert or update or delete on organization_aliases
  for each row execute function modelgate_notify_credential_change()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table organization_aliases`.execute(db);
}
