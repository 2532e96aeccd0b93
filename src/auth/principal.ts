/** Who is calling: resolved from the Bearer credential on every request (never cached, so deletion is immediate). */
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
