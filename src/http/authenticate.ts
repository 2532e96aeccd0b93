// Bearer credential → Principal. Both credential kinds are looked up by SHA-256 hash; the stored hash is then
// compared in constant time, so neither the lookup nor the comparison leaks the secret.
import type { Context } from 'koa';
import type { Db } from '../db/database.js';
import { hashSecret, hashesEqual, secretKindOf } from '../auth/secrets.js';
import type { Principal } from '../auth/principal.js';
import type { LastUsedTracker } from '../auth/last-used.js';
import { findActiveApiKeyByHash } from '../repositories/api-keys.js';
import { findActiveAccountTokenByHash } from '../repositories/account-tokens.js';
import { GatewayError } from './gateway-error.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function bearerToken(header: string | undefined): string {
  if (!header) throw new GatewayError(401, 'Missing Authorization header: send "Authorization: Bearer <API_KEY>"');
  const match = BEARER.exec(header);
  if (!match) throw new GatewayError(401, 'Malformed Authorization header: expected "Bearer <API_KEY>"');
  return match[1];
}

export async function resolvePrincipal(db: Db, secret: string, lastUsed?: LastUsedTracker): Promise<Principal> {
  const kind = secretKindOf(secret);
  const hash = hashSecret(secret);
  if (kind === 'api_key') {
    const key = await findActiveApiKeyByHash(db, hash);
    if (key && hashesEqual(key.key_hash, hash)) {
      lastUsed?.mark(key.id);
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
        },
      };
    }
  } else if (kind === 'account_token') {
    const token = await findActiveAccountTokenByHash(db, hash);
    if (token && hashesEqual(token.token_hash, hash)) {
      return {
        kind,
        userId: token.user_id,
        email: token.email,
        credentialId: token.id,
        limits: { rateLimitRpm: null, rateLimitTpm: null, freeRequestsPerDay: null, creditLimitNanos: null },
      };
    }
  }
  throw new GatewayError(401, 'Invalid or deleted credential');
}

export function authenticator(db: Db, lastUsed?: LastUsedTracker) {
  return async (ctx: Context): Promise<void> => {
    ctx.state.principal = await resolvePrincipal(db, bearerToken(ctx.get('authorization') || undefined), lastUsed);
  };
}

export function principalOf(ctx: Context): Principal {
  const principal = ctx.state.principal as Principal | undefined;
  if (!principal) throw new GatewayError(401, 'Missing or invalid credential');
  return principal;
}
