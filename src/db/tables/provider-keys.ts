import type { Generated, Insertable, Selectable } from 'kysely';

/** When routing uses an organization's own key: before the operator's, instead of it, or only when it is down. */
export type ProviderKeyMode = 'prefer' | 'only' | 'fallback';

/** `provider_keys` (migration 0019): an organization's own key for one catalog provider. */
export interface ProviderKeysTable {
  organization_id: string;
  provider: string;
  /** The key, sealed by src/auth/secret-box.ts; never kept in clear. */
  key_ciphertext: string;
  /** What listings show of the key (`sk-…a1b2`). */
  key_hint: string;
  mode: ProviderKeyMode;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type ProviderKeyRow = Selectable<ProviderKeysTable>;
export type NewProviderKey = Insertable<ProviderKeysTable>;
