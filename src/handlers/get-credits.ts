import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { creditAccount } from '../services/credits.js';
import { nanosToUsd } from '../billing/money.js';

export function getCredits(deps: Deps): Handler {
  return async (_api, ctx) => {
    // Read-your-writes: the last responses' debits may still sit in this instance's settlement queue.
    await deps.settlements.flushed();
    const account = await creditAccount(deps.db, principalOf(ctx).userId);
    ctx.body = { data: { total_credits: nanosToUsd(account.totalGrantedNanos), total_usage: nanosToUsd(account.totalUsedNanos) } };
  };
}
