import type { KeyLimitReset } from '../db/tables/api-keys.js';
import type { MemberRole } from '../db/tables/memberships.js';
import type { GuardrailLists } from '../core/guardrail.js';

/**
 * Who is calling: resolved from the Bearer credential on every request, through CredentialCache (deletion and limit
 * changes invalidate it, so they still apply at once). Shared between requests: never mutate one.
 */
export interface Principal {
  /**
   * `api_key`: an inference key (calls models, reads its account, may revoke itself). `management_key`: a row of
   * api_keys too, but it manages the account's keys and calls no model (src/auth/key-scopes.ts). `account_token`:
   * the user's own credential, which may do both. `admin_key`: the operator API's credential; it owns no wallet
   * (organizationId and memberUserId are empty) and only opens admin routes.
   */
  kind: 'api_key' | 'management_key' | 'account_token' | 'admin_key';
  /**
   * The organization the credential acts in and spends from: a key's own organization; for an account token, its
   * user's personal organization (whose id is the user's id).
   */
  organizationId: string;
  /** The member behind the credential: the key's member, or the account token's user. */
  memberUserId: string;
  /** That member's role in organizationId (an admin key: 'owner' of nothing, never consulted). */
  role: MemberRole;
  /** The member's email. */
  email: string;
  /** api_keys.id (API and management keys), account_tokens.id or admin_keys.id. */
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
  /**
   * The organization's and the member's budgets (src/billing/budget-pools.ts), read with the credential (a change
   * invalidates cached principals); absent for an admin key.
   */
  budgets?: { organization: BudgetRule | null; member: BudgetRule | null };
  /**
   * The organization's own model names (migration 0020): alias name to catalog model id, read with the credential
   * (a change invalidates cached principals); absent for an admin key.
   */
  aliases?: ReadonlyMap<string, string>;
  /**
   * The organization's and (for an API key) the key's own guardrails (migration 0022), read with the credential (a
   * change invalidates cached principals); absent for an admin key.
   */
  guardrails?: GuardrailLists;
  /** Rows of api_keys only: what the key may do besides its limits (checked on every request, also from the cache). */
  policy?: KeyPolicy;
}

export interface KeyPolicy {
  disabled: boolean;
  expiresAt: Date | null;
  /** Model ids and `provider/*` patterns; null: every model. */
  allowedModels: readonly string[] | null;
}

/** Whether the credential is a row of api_keys (an inference or a management key): what GET /key describes. */
export function isApiKeyRow(principal: Principal): boolean {
  return principal.kind === 'api_key' || principal.kind === 'management_key';
}

/** A budget: a limit in nano-USD per reset period (UTC calendar; null: one period that never ends). */
export interface BudgetRule {
  limitNanos: bigint;
  reset: KeyLimitReset | null;
}

/** The member a request is recorded under: the key's member or the account token's user; null for an admin key. */
export function memberOf(principal: Principal): string | null {
  return principal.memberUserId === '' ? null : principal.memberUserId;
}
