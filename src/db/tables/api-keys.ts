import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * `api_keys`: only the SHA-256 hex of the secret is stored, plus a short display prefix.
 * Limit columns are per-key overrides; `null` means "use the gateway default".
 */
export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  key_hash: string;
  display_prefix: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  deleted_at: Date | null;
  rate_limit_rpm: number | null;
  rate_limit_tpm: number | null;
  free_requests_per_day: number | null;
  credit_limit_nanos: bigint | null;
}

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKey = Insertable<ApiKeysTable>;
export type ApiKeyUpdate = Updateable<ApiKeysTable>;
