// The operator's credit and pass routes by organization (/admin/organizations/{organization_id}/credits, .../pass):
// the same services as the user routes, which stay for compatibility and reach a user's personal organization (whose
// id is the user's). An unknown organization is 404 naming it.
import { actorOf } from '../services/audit-log.js';
import { principalOf } from '../http/authenticate.js';
import type { GrantParts, HandlerParts, LimitsViewParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { GatewayError } from '../core/gateway-error.js';
import { nanosToUsd, usdToNanos } from '../core/money.js';
import { requireOrganization } from '../services/organizations.js';
import { adjustCredits } from '../services/credits.js';
import { grantPass, revokePass, showPass } from '../services/pass.js';
import { withoutNullUsage } from './admin-grant-pass.js';

type ApiRequest = Parameters<Handler>[0];

function organizationOf(parts: Pick<HandlerParts, 'db'>, api: ApiRequest) {
  return requireOrganization(parts.db, String(api.request.params.organization_id));
}

export function adminAdjustOrganizationCredits(parts: Pick<HandlerParts, 'db' | 'leases' | 'logger'>): Handler {
  return async (api, ctx) => {
    const org = await organizationOf(parts, api);
    const body = api.request.requestBody as { amount: number; note?: string };
    if (body.note?.includes('\u0000'))
      throw new GatewayError(400, 'Invalid request: note must not contain a NUL character', { field: 'note' });
    const amountNanos = usdToNanos(body.amount);
    const result = await adjustCredits(
      { db: parts.db, recalls: parts.leases.recalls, logger: parts.logger },
      { userId: org.id, amountNanos, note: body.note ?? null, by: actorOf(principalOf(ctx)) },
    );
    ctx.body = {
      organization_id: org.id,
      amount: nanosToUsd(amountNanos),
      balance: nanosToUsd(result.balanceNanos),
      ledger_id: String(result.ledgerId),
    };
  };
}

export function adminGrantOrganizationPass(parts: GrantParts): Handler {
  return async (api, ctx) => {
    const org = await organizationOf(parts, api);
    const { months = 1 } = (api.request.requestBody ?? {}) as { months?: number };
    const now = parts.now();
    await grantPass(parts.db, org.id, months, now, actorOf(principalOf(ctx)));
    ctx.body = {
      organization_id: org.id,
      ...withoutNullUsage(await showPass(parts.db, parts.config.passQuota, org.id, now)),
    };
  };
}

export function adminRevokeOrganizationPass(parts: Pick<HandlerParts, 'db' | 'now'>): Handler {
  return async (api, ctx) => {
    const org = await organizationOf(parts, api);
    ctx.body = {
      organization_id: org.id,
      revoked_periods: await revokePass(parts.db, { userId: org.id, now: parts.now(), by: actorOf(principalOf(ctx)) }),
    };
  };
}

export function adminGetOrganizationPass(parts: LimitsViewParts): Handler {
  return async (api, ctx) => {
    const org = await organizationOf(parts, api);
    await parts.settlements.flushed();
    ctx.body = {
      organization_id: org.id,
      ...withoutNullUsage(await showPass(parts.db, parts.config.passQuota, org.id, parts.now())),
    };
  };
}
