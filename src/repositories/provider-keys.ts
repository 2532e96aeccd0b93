// Organizations' own provider keys (migration 0019): the sealed key, its hint and its mode, one per provider.
import type { DbOrTrx } from '../db/database.js';
import type { ProviderKeyMode, ProviderKeyRow } from '../db/tables/provider-keys.js';

export async function findProviderKey(
  db: DbOrTrx,
  organizationId: string,
  provider: string,
): Promise<ProviderKeyRow | undefined> {
  return db
    .selectFrom('provider_keys')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('provider', '=', provider)
    .executeTakeFirst();
}

/** The organization's keys, by provider id. */
export async function listProviderKeys(db: DbOrTrx, organizationId: string): Promise<ProviderKeyRow[]> {
  return db
    .selectFrom('provider_keys')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('provider')
    .execute();
}

/** Sets the organization's key for a provider (made or replaced); the row as it is now. */
export async function upsertProviderKey(
  db: DbOrTrx,
  row: { organizationId: string; provider: string; ciphertext: string; hint: string; mode: ProviderKeyMode },
): Promise<ProviderKeyRow> {
  return db
    .insertInto('provider_keys')
    .values({
      organization_id: row.organizationId,
      provider: row.provider,
      key_ciphertext: row.ciphertext,
      key_hint: row.hint,
      mode: row.mode,
    })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'provider']).doUpdateSet((eb) => ({
        key_ciphertext: eb.ref('excluded.key_ciphertext'),
        key_hint: eb.ref('excluded.key_hint'),
        mode: eb.ref('excluded.mode'),
        updated_at: new Date(),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteProviderKey(
  db: DbOrTrx,
  organizationId: string,
  provider: string,
): Promise<ProviderKeyRow | undefined> {
  return db
    .deleteFrom('provider_keys')
    .where('organization_id', '=', organizationId)
    .where('provider', '=', provider)
    .returningAll()
    .executeTakeFirst();
}

/** Whether any organization stored a key (start-up refuses to run without a master key then). */
export async function anyProviderKeyStored(db: DbOrTrx): Promise<boolean> {
  const row = await db.selectFrom('provider_keys').select('provider').limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Every stored key's ciphertext, for re-wrapping under a new master key. */
export async function sealedProviderKeys(
  db: DbOrTrx,
): Promise<Array<Pick<ProviderKeyRow, 'organization_id' | 'provider' | 'key_ciphertext'>>> {
  return db.selectFrom('provider_keys').select(['organization_id', 'provider', 'key_ciphertext']).execute();
}

/**
 * Replaces a key's ciphertext with the same key re-wrapped, only if it is still the one read (a key set meanwhile is
 * sealed under the current master key already); whether it was replaced.
 */
export async function replaceProviderKeyCiphertext(
  db: DbOrTrx,
  row: { organizationId: string; provider: string; from: string; to: string },
): Promise<boolean> {
  const result = await db
    .updateTable('provider_keys')
    .set({ key_ciphertext: row.to })
    .where('organization_id', '=', row.organizationId)
    .where('provider', '=', row.provider)
    .where('key_ciphertext', '=', row.from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
