import type { Guardrail } from '../../core/guardrail.js';
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * `api_keys`: only the SHA-256 hex of the secret is stored, plus a short display prefix.
 * The rate and free-allowance columns are a key's own limits, on top of its account's (the gateway's settings);
 * `null`: none of its own.
 */
export interface ApiKeysTable {
  id: string;
  /** The organization the key belongs to and spends from (the column kept its name in migration 0015). */
  user_id: string;
  /** The member who made the key and whose key it is (migration 0015). */
  member_user_id: string;
  name: string;
  key_hash: string;
  display_prefix: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  deleted_at: Date | null;
  rate_limit_rpm: number | null;
  rate_limit_tpm: number | null;
  free_requests_per_day: number | null;
  /** The key's USD spend limit (`limit` on the wire); null: no limit, it draws on its owner's credits. */
  credit_limit_nanos: bigint | null;
  /** When the limit starts over (UTC boundaries); null: never. */
  limit_reset: Generated<KeyLimitReset | null>;
  expires_at: Generated<Date | null>;
  disabled: Generated<boolean>;
  /** Model ids and `provider/*` patterns the key may use (jsonb array); null: every model. */
  allowed_models: Generated<string[] | null>;
  /** Fixed at creation (migration 0010): what the key may do; see src/auth/key-scopes.ts. */
  kind: Generated<ApiKeyKind>;
  /** The key's own guardrails (migration 0022), applied with its organization's; null: none. */
  guardrails: Generated<Guardrail[] | null>;
}

/** `inference`: calls models, reads its own account, may revoke itself. `management`: manages keys, calls no model. */
export type ApiKeyKind = 'inference' | 'management';

export type KeyLimitReset = 'daily' | 'weekly' | 'monthly';

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKey = Insertable<ApiKeysTable>;
export type ApiKeyUpdate = Updateable<ApiKeysTable>;
