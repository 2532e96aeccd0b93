import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// Organizations own what an account owned: credits, keys, the pass subscription and usage. Users are members of
// organizations with a role. Every user gets a personal organization whose id is the user's own id, so every money
// and usage row (credit_accounts, credit_ledger, credit_leases, subscriptions, pass_usage, generations, usage_daily,
// api_keys) keeps its meaning without moving data: their `user_id` column now names the owning organization. The
// columns keep their names so processes of the previous release, which write and read them, keep working during a
// rolling upgrade; their foreign keys move from users to organizations.
//
// A trigger gives every user inserted from now on (by this release or the previous one) its personal organization
// and owner membership, so no writer of users can leave an account without one.
// api_keys.member_user_id: the member who made the key and whose key it is (for existing keys, the account's user).

/** The tables whose `user_id` names the account that owns them, with a foreign key to users in 0001 and 0004. */
const OWNED_TABLES = ['api_keys', 'credit_accounts', 'credit_ledger', 'subscriptions', 'credit_leases'] as const;

// `Kysely<any>` on purpose: a migration describes the schema as it was, not the app's current types.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table organizations (
  id text primary key,
  name text not null,
  personal boolean not null default false,
  created_at timestamptz not null default now())`.execute(db);
  await sql`create table memberships (
  organization_id text not null references organizations(id) on delete cascade,
  user_id text not null references users(id) on delete cascade,
  role text not null constraint memberships_role_ck check (role in ('owner', 'admin', 'member')),
  created_at timestamptz not null default now(),
  primary key (organization_id, user_id))`.execute(db);
  await sql`create index memberships_user_idx on memberships (user_id)`.execute(db);
  // Cached principals carry their member's role: a membership changed or removed asks every gateway to forget them.
  await sql`create trigger memberships_notify_credential_change after update or delete on memberships
  for each row execute function modelgate_notify_credential_change()`.execute(db);
  // A one-time invitation: only the SHA-256 hex of its token is stored; accepting it sets accepted_*.
  await sql`create table organization_invitations (
  id text primary key,
  organization_id text not null references organizations(id) on delete cascade,
  token_hash text not null unique,
  role text not null constraint organization_invitations_role_ck check (role in ('owner', 'admin', 'member')),
  created_by text not null references users(id),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_by text references users(id),
  accepted_at timestamptz)`.execute(db);
  await sql`create index organization_invitations_org_idx on organization_invitations (organization_id, created_at)`.execute(
    db,
  );

  await sql`insert into organizations (id, name, personal, created_at)
  select u.id, u.email, true, u.created_at from users u`.execute(db);
  await sql`insert into memberships (organization_id, user_id, role, created_at)
  select u.id, u.id, 'owner', u.created_at from users u`.execute(db);

  await sql`create function users_add_personal_organization() returns trigger
language plpgsql as $fn$
begin
  insert into organizations (id, name, personal, created_at) values (new.id, new.email, true, new.created_at)
  on conflict (id) do nothing;
  insert into memberships (organization_id, user_id, role, created_at) values (new.id, new.id, 'owner', new.created_at)
  on conflict do nothing;
  return null;
end
$fn$`.execute(db);
  await sql`create trigger users_personal_organization after insert on users
  for each row execute function users_add_personal_organization()`.execute(db);

  for (const table of OWNED_TABLES) {
    await sql.raw(`alter table ${table} drop constraint ${table}_user_id_fkey`).execute(db);
    await sql
      .raw(`alter table ${table} add constraint ${table}_organization_fkey
  foreign key (user_id) references organizations(id)`)
      .execute(db);
  }

  await sql`alter table api_keys add column member_user_id text references users(id)`.execute(db);
  await sql`update api_keys set member_user_id = user_id`.execute(db);
  await sql`alter table api_keys alter column member_user_id set not null`.execute(db);
  await sql`create index api_keys_member_idx on api_keys (member_user_id)`.execute(db);
  // A process of the previous release creates keys without a member: the key is its personal account's user's.
  await sql`create function api_keys_default_member() returns trigger
language plpgsql as $fn$
begin
  new.member_user_id := coalesce(new.member_user_id, new.user_id);
  return new;
end
$fn$`.execute(db);
  await sql`create trigger api_keys_default_member before insert on api_keys
  for each row execute function api_keys_default_member()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger api_keys_default_member on api_keys`.execute(db);
  await sql`drop function api_keys_default_member()`.execute(db);
  await sql`drop index api_keys_member_idx`.execute(db);
  await sql`alter table api_keys drop column member_user_id`.execute(db);
  for (const table of OWNED_TABLES) {
    await sql.raw(`alter table ${table} drop constraint ${table}_organization_fkey`).execute(db);
    await sql
      .raw(`alter table ${table} add constraint ${table}_user_id_fkey foreign key (user_id) references users(id)`)
      .execute(db);
  }
  await sql`drop trigger users_personal_organization on users`.execute(db);
  await sql`drop function users_add_personal_organization()`.execute(db);
  await sql`drop table organization_invitations`.execute(db);
  await sql`drop trigger memberships_notify_credential_change on memberships`.execute(db);
  await sql`drop table memberships`.execute(db);
  await sql`drop table organizations`.execute(db);
}
