/**
 * Who is calling: resolved from the Bearer credential on every request, through CredentialCache (deletion and limit
 * changes invalidate it, so they still apply at once). Shared between requests: never mutate one.
 */
export interface Principal {
  kind: 'api_key' | 'account_token';
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
  };
}
