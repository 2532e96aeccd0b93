import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// Stored responses of the Responses API (`store`, `previous_response_id`): one row per turn, holding that turn's own
// new input items and the Response object answered (its output items inside), with a link to the turn it continued;
// a chain is read by walking the links, so a long conversation is stored once, not once per turn. Rows belong to an
// organization (deleted with it) and name the member and the key that created them, for purges; `expires_at` is
// when retention lets them go.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table stored_responses (
  id text primary key,
  organization_id text not null references organizations(id) on delete cascade,
  member_user_id text not null,
  api_key_id text,
  model text not null,
  previous_response_id text,
  root_id text not null,
  input_items jsonb not null,
  response jsonb not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null)`.execute(db);
  await sql`create index stored_responses_member_idx on stored_responses (organization_id, member_user_id)`.execute(db);
  await sql`create index stored_responses_expires_idx on stored_responses (expires_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table stored_responses`.execute(db);
}
