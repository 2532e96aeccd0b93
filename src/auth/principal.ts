import type { KeyLimitReset } from '../db/tables/api-keys.js';

/**
 * Who is calling: resolved from the Bearer credential on every request, through CredentialCache (deletion and limit
 * changes invalidate it, so they still apply at once). Shared between requests: never mutate one.
 */
export interface Principal {
  /** `admin_key`: the operator API's credential; it owns no wallet (userId is empty) and only opens admin routes. */
  kind: 'api_key' | 'account_token' | 'admin_key';
  userId: string;
  email: string;
  /** api_keys.id or account_tokens.id. */
  credentialId: string;
  /** Per-key overrides (null = gateway default); only for API keys. */
  limits: {
    rateLimitRpm: number | null;
    rateLimitTpm: number | null;
    freeRequestsPerDay: number | null;
    creditLimitNanos: bigint | null;
    /** When the USD limit starts over; null: never. */
    limitReset?: KeyLimitReset | null;
  };
  /** API keys only: what the key may do besides its limits (checked on every request, also from the cache). */
  policy?: KeyPolicy;
}

export interface KeyPolicy {
  disabled: boolean;
  expiresAt: Date | null;
  /** Model ids and `provider/*` patterns; null: every model. */
  allowedModels: readonly string[] | null;
}
