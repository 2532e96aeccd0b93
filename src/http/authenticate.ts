// Bearer credential → Principal. Both credential kinds are looked up by SHA-256 hash; the stored hash is then
// compared in constant time, so neither the lookup nor the comparison leaks the secret. The app resolves through
// a CredentialCache (no database round trip for a credential seen recently); resolvePrincipal stays uncached.
import type { Context } from 'koa';
import type { Db } from '../db/database.js';
import { hashSecret, hashesEqual, secretKindOf, type SecretKind } from '../auth/secrets.js';
import { isApiKeyRow, type Principal } from '../auth/principal.js';
import type { LastUsedTracker } from '../auth/last-used.js';
import type { CredentialCache } from '../auth/credential-cache.js';
import { findActiveApiKeyByHash } from '../repositories/api-keys.js';
import { findActiveAccountTokenByHash } from '../repositories/account-tokens.js';
import { findActiveAdminKeyByHash } from '../repositories/admin-keys.js';
import { authorizeRoute } from '../auth/authorize-route.js';
import { GatewayError } from '../core/gateway-error.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const NO_LIMITS: Principal['limits'] = {
  rateLimitRpm: null,
  rateLimitTpm: null,
  freeRequestsPerDay: null,
  creditLimitNanos: null,
  limitReset: null,
};

export function bearerToken(header: string | undefined): string {
  if (!header) throw new GatewayError(401, 'Missing Authorization header: send "Authorization: Bearer <API_KEY>"');
  const match = BEARER.exec(header);
  if (!match) throw new GatewayError(401, 'Malformed Authorization header: expected "Bearer <API_KEY>"');
  return match[1];
}

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
        userId: key.user_id,
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
      };
    }
  } else if (kind === 'admin_key') {
    const key = await findActiveAdminKeyByHash(db, hash);
    if (key && hashesEqual(key.key_hash, hash)) {
      return { kind, userId: '', email: '', credentialId: key.id, limits: NO_LIMITS };
    }
  } else {
    const token = await findActiveAccountTokenByHash(db, hash);
    if (token && hashesEqual(token.token_hash, hash)) {
      return {
        kind,
        userId: token.user_id,
        email: token.email,
        credentialId: token.id,
        limits: NO_LIMITS,
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

/** Where an operation also takes its credential besides `Authorization: Bearer` (an `apiKey` scheme it declares). */
export interface ApiKeySource {
  in: 'header' | 'query';
  /** Header name (lower case) or query parameter name. */
  name: string;
}

function apiKeyOf(ctx: Context, source: ApiKeySource): string | undefined {
  if (source.in === 'header') return ctx.get(source.name) || undefined;
  const value = ctx.query[source.name];
  return (Array.isArray(value) ? value[0] : value) || undefined;
}

function describeSources(sources: readonly ApiKeySource[]): string {
  return [
    ...sources.map((s) => (s.in === 'header' ? `"${s.name}: <API_KEY>"` : `"?${s.name}=<API_KEY>"`)),
    '"Authorization: Bearer <API_KEY>"',
  ].join(' or ');
}

/**
 * The credential of a request: `Authorization: Bearer`, or, on operations that declare them, an API key header or
 * query parameter (`x-api-key` on the Anthropic Messages routes; `x-goog-api-key` and `?key=` on the Gemini routes,
 * where Google's clients send them). Authorization wins when several are sent, then the sources in declared order.
 */
export function requestSecret(ctx: Context, sources: readonly ApiKeySource[]): string {
  const authorization = ctx.get('authorization') || undefined;
  if (!authorization && sources.length > 0) {
    for (const source of sources) {
      const key = apiKeyOf(ctx, source);
      if (key) return key.trim();
    }
    throw new GatewayError(401, `Missing credential: send ${describeSources(sources)}`);
  }
  return bearerToken(authorization);
}

export function authenticator(
  db: Db,
  lastUsed?: LastUsedTracker,
  credentials?: CredentialCache,
  now: () => Date = () => new Date(),
) {
  return async (ctx: Context, sources: readonly ApiKeySource[] = [], operationId?: string): Promise<void> => {
    const secret = requestSecret(ctx, sources);
    const principal = credentials
      ? await resolvePrincipalCached(db, credentials, secret, lastUsed)
      : await resolvePrincipal(db, secret, lastUsed);
    // Checked on every request, from the cache too: expiry needs no change to the row, and a disabled key's
    // cached principal is dropped by the change notification.
    authorizeRoute(principal, ctx.path, now(), operationId);
    ctx.state.principal = principal;
  };
}

export function principalOf(ctx: Context): Principal {
  const principal = ctx.state.principal as Principal | undefined;
  if (!principal) throw new GatewayError(401, 'Missing or invalid credential');
  return principal;
}
