import type { LimitsViewParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { isApiKeyRow } from '../auth/principal.js';
import { GatewayError } from '../core/gateway-error.js';
import { creditAccount } from '../services/credits.js';
import { describeKey } from '../services/api-keys.js';
import { toWireKeyLimits } from './wire-api-key.js';
import { effectiveLimit } from '../limits/admit-rate.js';

export function getCurrentKey(parts: LimitsViewParts): Handler {
  return async (_api, ctx) => {
    const principal = principalOf(ctx);
    if (!isApiKeyRow(principal)) {
      // As documented in the spec: an account token is not an API key, so there is no key to describe.
      throw new GatewayError(404, 'GET /key describes API keys; this request was made with an account token', {
        credential: 'account_token',
      });
    }
    await parts.settlements.flushed();
    const [view, account] = await Promise.all([
      describeKey(parts.db, principal.organizationId, principal.credentialId, parts.now()),
      creditAccount(parts.db, principal.organizationId),
    ]);
    // Deleted between authentication and here.
    if (!view) throw new GatewayError(401, 'Invalid or deleted credential');
    const key = view.row;
    ctx.body = {
      data: {
        key_id: key.id,
        name: key.name,
        prefix: key.display_prefix,
        kind: key.kind,
        organization_id: key.user_id,
        member_id: key.member_user_id,
        ...toWireKeyLimits(view),
        is_free_tier: account.totalGrantedNanos === 0n,
        // What applies to this key: the account's limits, or the key's own where they are tighter.
        rate_limit: {
          requests_per_minute: effectiveLimit(key.rate_limit_rpm, parts.config.rateLimitRpm),
          tokens_per_minute: effectiveLimit(key.rate_limit_tpm, parts.config.rateLimitTpm),
        },
        free_requests_per_day: effectiveLimit(key.free_requests_per_day, parts.config.freeRequestsPerDay),
      },
    };
  };
}
