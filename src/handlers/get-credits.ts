import type { SettledReadParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { creditAccount } from '../services/credits.js';
import { nanosToUsd } from '../core/money.js';

export function getCredits(parts: SettledReadParts): Handler {
  return async (_api, ctx) => {
    // Read-your-writes: the last responses' debits may still sit in this instance's settlement queue.
    await parts.settlements.flushed();
    const account = await creditAccount(parts.db, principalOf(ctx).organizationId);
    ctx.body = {
      data: { total_credits: nanosToUsd(account.totalGrantedNanos), total_usage: nanosToUsd(account.totalUsedNanos) },
    };
  };
}
