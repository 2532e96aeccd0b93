import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// Key scopes: an API key is an `inference` key (calls models, reads its own account, may revoke itself)
// or a `management` key (manages the account's inference keys and reads the account; calls no model). The kind is
// fixed at creation. Every existing key is an inference key, which is what every key could do before except manage
// keys. A management key has no USD limit, reset period or model allow-list: it spends nothing, so the check below
// keeps a row from claiming one.
//
// Management secrets carry their own prefix (`mgm-v1-`), which a process of the previous release does not know: it
// refuses them with 401 instead of treating them as an ordinary key, so a rolling upgrade never lets one call a model.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table api_keys
    add column kind text not null default 'inference' check (kind in ('inference', 'management')),
    add constraint api_keys_management_spends_nothing check (
      kind = 'inference' or (credit_limit_nanos is null and limit_reset is null and allowed_models is null))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  // Without the column a management key would read as an unlimited inference key: revoke them rather than widen them.
  await sql`update api_keys set deleted_at = coalesce(deleted_at, now()) where kind = 'management'`.execute(db);
  await sql`alter table api_keys drop constraint api_keys_management_spends_nothing, drop column kind`.execute(db);
}
