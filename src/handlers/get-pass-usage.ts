// GET /pass/usage: the caller's subscription usage per window; 403 without an active subscription.
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { GatewayError } from '../core/gateway-error.js';
import { passUsageReport, toWirePassUsage } from '../pass/usage-report.js';

export function getPassUsage(parts: Pick<HandlerParts, 'config' | 'db' | 'now' | 'settlements'>): Handler {
  return async (_api, ctx) => {
    // Read-your-writes: settlement turns the last requests' upper bounds into their real cost.
    await parts.settlements.flushed();
    const report = await passUsageReport({ db: parts.db, now: parts.now, passQuota: parts.config.passQuota }, principalOf(ctx).userId);
    if (!report) {
      throw new GatewayError(403, 'This account has no active subscription: subscription usage is only available to subscribers', {
        reason: 'subscription_required',
      });
    }
    ctx.body = toWirePassUsage(report);
  };
}
