// Admin keys: the operator API's credentials. Created only from the CLI (whoever runs it already holds the
// database), shown once, stored as a SHA-256 hash like every credential.
import { CONSOLE_ACTOR, recordAudit } from './audit-log.js';
import { inTransaction } from '../db/in-transaction.js';
import type { Db } from '../db/database.js';
import type { AdminKeyRow } from '../db/tables/admin-keys.js';
import { newId, newSecret } from '../auth/secrets.js';
import { insertAdminKey, listAdminKeys as listRows, softDeleteAdminKey } from '../repositories/admin-keys.js';
import type { CredentialInvalidator } from './api-keys.js';

export async function createAdminKey(db: Db, input: { name: string }): Promise<{ row: AdminKeyRow; secret: string }> {
  const { secret, hash, displayPrefix } = newSecret('admin_key');
  const row = await inTransaction(db, async (trx) => {
    const created = await insertAdminKey(trx, {
      id: newId('adm_'),
      name: input.name,
      key_hash: hash,
      display_prefix: displayPrefix,
    });
    await recordAudit(trx, {
      actor: CONSOLE_ACTOR,
      organizationId: null,
      action: 'admin_key.created',
      target: { type: 'admin_key', id: created.id },
      after: created,
    });
    return created;
  });
  return { row, secret };
}

export function listAdminKeys(db: Db): Promise<AdminKeyRow[]> {
  return listRows(db);
}

/** Revokes an admin key: refused on the next request everywhere (its row's change notifies every instance). */
export async function deleteAdminKey(
  db: Db,
  credentials: CredentialInvalidator | undefined,
  input: { keyId: string; now: Date },
): Promise<boolean> {
  const hash = await inTransaction(db, async (trx) => {
    const deleted = await softDeleteAdminKey(trx, input);
    if (deleted !== undefined)
      await recordAudit(trx, {
        actor: CONSOLE_ACTOR,
        organizationId: null,
        action: 'admin_key.revoked',
        target: { type: 'admin_key', id: input.keyId },
        after: { deleted_at: input.now },
      });
    return deleted;
  });
  if (hash === undefined) return false;
  credentials?.invalidate(hash);
  return true;
}
