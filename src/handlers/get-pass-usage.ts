// GET /pass/usage: the caller's subscription state and usage per window (`active: false` without a subscription).
import type { LimitsViewParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { passUsageOf } from '../pass/usage-report.js';

export function getPassUsage(parts: LimitsViewParts): Handler {
  return async (_api, ctx) => {
    // Read-your-writes: settlement turns the last requests' upper bounds into their real cost.
    await parts.settlements.flushed();
    ctx.body = await passUsageOf(
      { db: parts.db, now: parts.now, passQuota: parts.config.passQuota },
      principalOf(ctx).organizationId,
    );
  };
}
