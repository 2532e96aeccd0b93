// A presented secret → Principal. Both credential kinds are looked up by SHA-256 hash; the stored hash is then
// compared in constant time, so neither the lookup nor the comparison leaks the secret. The app resolves through
// a CredentialCache (no database round trip for a credential seen recently); resolvePrincipal stays uncached.
// Reading the secret off a request and routing checks are the HTTP layer's (http/authenticate.ts).
import type { Db } from '../db/database.js';
import { hashSecret, hashesEqual, secretKindOf, type SecretKind } from './secrets.js';
import { isApiKeyRow, type BudgetRule, type Principal } from './principal.js';
import type { OrganizationColumns } from '../repositories/api-keys.js';
import type { LastUsedTracker } from './last-used.js';
import type { CredentialCache } from './credential-cache.js';
import { findActiveApiKeyByHash } from '../repositories/api-keys.js';
import { findActiveAccountTokenByHash } from '../repositories/account-tokens.js';
import { findActiveAdminKeyByHash } from '../repositories/admin-keys.js';
import { GatewayError } from '../core/gateway-error.js';
import { aliasMapOf } from '../repositories/organization-aliases.js';

const NO_LIMITS: Principal['limits'] = {
  rateLimitRpm: null,
  rateLimitTpm: null,
  freeRequestsPerDay: null,
  creditLimitNanos: null,
  limitReset: null,
};

/** Uncached: one database query per call. The app uses `cachedAuthenticator`, tools and tests may use this. */
export async function resolvePrincipal(db: Db, secret: string, lastUsed?: LastUsedTracker): Promise<Principal> {
  const kind = secretKindOf(secret);
  const principal = kind === undefined ? undefined : await loadPrincipal(db, kind, hashSecret(secret));
  if (principal === undefined) throw invalidCredential();
  markUsed(principal, lastUsed);
  return principal;
}

/** The database path: the row is found by hash, then its stored hash is compared in constant time. */
export async function loadPrincipal(db: Db, kind: SecretKind, hash: string): Promise<Principal | undefined> {
  if (kind === 'api_key' || kind === 'management_key') {
    const key = await findActiveApiKeyByHash(db, hash);
    // The row's kind decides; the prefix must agree (it always does: the hash covers the prefix), so a row can
    // never be served under the other kind's scope.
    if (key && hashesEqual(key.key_hash, hash) && (key.kind === 'management') === (kind === 'management_key')) {
      return {
        kind,
        organizationId: key.user_id,
        memberUserId: key.member_user_id,
        role: key.role,
        email: key.email,
        credentialId: key.id,
        limits: {
          rateLimitRpm: key.rate_limit_rpm,
          rateLimitTpm: key.rate_limit_tpm,
          freeRequestsPerDay: key.free_requests_per_day,
          creditLimitNanos: key.credit_limit_nanos,
          limitReset: key.limit_reset,
        },
        policy: { disabled: key.disabled, expiresAt: key.expires_at, allowedModels: key.allowed_models },
        budgets: budgetsOf(key),
        aliases: aliasMapOf(key.org_aliases),
        guardrails: { organization: key.org_guardrails ?? [], key: key.guardrails ?? [] },
      };
    }
  } else if (kind === 'admin_key') {
    const key = await findActiveAdminKeyByHash(db, hash);
    if (key && hashesEqual(key.key_hash, hash)) {
      return {
        kind,
        organizationId: '',
        memberUserId: '',
        role: 'member',
        email: '',
        credentialId: key.id,
        limits: NO_LIMITS,
      };
    }
  } else {
    const token = await findActiveAccountTokenByHash(db, hash);
    if (token && hashesEqual(token.token_hash, hash)) {
      return {
        kind,
        // The user's personal organization, whose id is the user's (a user always owns it).
        organizationId: token.user_id,
        memberUserId: token.user_id,
        role: 'owner',
        email: token.email,
        credentialId: token.id,
        limits: NO_LIMITS,
        budgets: budgetsOf(token),
        aliases: aliasMapOf(token.org_aliases),
        guardrails: { organization: token.org_guardrails ?? [], key: [] },
      };
    }
  }
  return undefined;
}

/**
 * Cached: a credential seen recently is answered from memory (see CredentialCache for how deletion still takes
 * effect at once); a secret without a known prefix is refused without asking anyone.
 */
export async function resolvePrincipalCached(
  db: Db,
  credentials: CredentialCache,
  secret: string,
  lastUsed?: LastUsedTracker,
): Promise<Principal> {
  const kind = secretKindOf(secret);
  if (kind === undefined) throw invalidCredential();
  const hash = hashSecret(secret);
  const principal = await credentials.lookup(hash, () => loadPrincipal(db, kind, hash));
  if (principal === undefined) throw invalidCredential();
  // On every request, cache hit or not: last_used_at must keep moving while a key is served from memory.
  markUsed(principal, lastUsed);
  return principal;
}

function markUsed(principal: Principal, lastUsed: LastUsedTracker | undefined): void {
  if (isApiKeyRow(principal)) lastUsed?.mark(principal.credentialId);
}

function invalidCredential(): GatewayError {
  return new GatewayError(401, 'Invalid or deleted credential');
}

/** What resolves a credential: the database, and optionally the credential cache and the last-used tracker. */
export interface CredentialSources {
  db: Db;
  credentials?: CredentialCache;
  lastUsed?: LastUsedTracker;
}

/** The principal of a presented secret: through the cache when there is one, else one query; 401 when unknown. */
export function authenticateCredential(sources: CredentialSources, secret: string): Promise<Principal> {
  const { db, credentials, lastUsed } = sources;
  return credentials
    ? resolvePrincipalCached(db, credentials, secret, lastUsed)
    : resolvePrincipal(db, secret, lastUsed);
}

export function budgetsOf(row: OrganizationColumns): NonNullable<Principal['budgets']> {
  return {
    organization: budgetRule(row.org_budget_limit_nanos, row.org_budget_reset),
    member: budgetRule(row.member_budget_limit_nanos, row.member_budget_reset),
  };
}

function budgetRule(limitNanos: bigint | null, reset: BudgetRule['reset']): BudgetRule | null {
  return limitNanos === null ? null : { limitNanos, reset };
}
