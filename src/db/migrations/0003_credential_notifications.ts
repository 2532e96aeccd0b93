import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// Gateways cache resolved credentials in memory (src/auth/credential-cache.ts). So that a key deleted or
// re-limited by another process (another instance, the CLI) stops being served at once, every change of a
// credential row announces its hash on the channel `modelgate_credentials` (NOTIFY is sent at commit, and not at
// all on rollback). A change of a user row (e.g. its email, which principals carry) announces '*': forget all.
//
// `last_used_at` is written in batches every second by every instance; a change of only that column says nothing
// a cached principal holds, so it stays silent (else each batch would empty the caches of the keys it touched).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function modelgate_notify_credential_change() returns trigger
    language plpgsql as $$
    declare
      old_row jsonb := to_jsonb(old);
    begin
      if tg_op = 'UPDATE' and (old_row - 'last_used_at') = (to_jsonb(new) - 'last_used_at') then
        return null;
      end if;
      -- tg_argv[0] names the hash column; a table without one (users) asks listeners to forget everything.
      perform pg_notify(
        'modelgate_credentials',
        case when tg_nargs > 0 then old_row ->> tg_argv[0] else '*' end
      );
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger api_keys_notify_credential_change
    after update or delete on api_keys
    for each row execute function modelgate_notify_credential_change('key_hash')`.execute(db);
  await sql`
    create trigger account_tokens_notify_credential_change
    after update or delete on account_tokens
    for each row execute function modelgate_notify_credential_change('token_hash')`.execute(db);
  await sql`
    create trigger users_notify_credential_change
    after update or delete on users
    for each row execute function modelgate_notify_credential_change()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger users_notify_credential_change on users`.execute(db);
  await sql`drop trigger account_tokens_notify_credential_change on account_tokens`.execute(db);
  await sql`drop trigger api_keys_notify_credential_change on api_keys`.execute(db);
  await sql`drop function modelgate_notify_credential_change()`.execute(db);
}
