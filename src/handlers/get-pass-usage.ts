// GET /pass/usage: the caller's subscription state and usage per window (`active: false` without a subscription).
import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { passUsageOf } from '../pass/usage-report.js';

export function getPassUsage(deps: Deps): Handler {
  return async (_api, ctx) => {
    // Read-your-writes: settlement turns the last requests' upper bounds into their real cost.
    await deps.settlements.flushed();
    ctx.body = await passUsageOf({ db: deps.db, now: deps.now, passQuota: deps.config.passQuota }, principalOf(ctx).userId);
  };
}
