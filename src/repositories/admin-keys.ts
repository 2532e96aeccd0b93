import type { DbOrTrx } from '../db/database.js';
import type { AdminKeyRow, NewAdminKey } from '../db/tables/admin-keys.js';

export async function insertAdminKey(db: DbOrTrx, row: NewAdminKey): Promise<AdminKeyRow> {
  return db.insertInto('admin_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Lookup for authentication; deleted admin keys never match. */
export async function findActiveAdminKeyByHash(db: DbOrTrx, keyHash: string): Promise<AdminKeyRow | undefined> {
  return db
    .selectFrom('admin_keys')
    .selectAll()
    .where('key_hash', '=', keyHash)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function listAdminKeys(db: DbOrTrx): Promise<AdminKeyRow[]> {
  return db
    .selectFrom('admin_keys')
    .selectAll()
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Soft-deletes an active admin key; returns its hash (to drop it from caches), else `undefined`. */
export async function softDeleteAdminKey(
  db: DbOrTrx,
  input: { keyId: string; now: Date },
): Promise<string | undefined> {
  const row = await db
    .updateTable('admin_keys')
    .set({ deleted_at: input.now })
    .where('id', '=', input.keyId)
    .where('deleted_at', 'is', null)
    .returning('key_hash')
    .executeTakeFirst();
  return row?.key_hash;
}
