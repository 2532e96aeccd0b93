import type { SettledReadParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { usageMemberOf } from '../auth/key-scopes.js';
import { dailyUsage } from '../services/generations.js';
import { nanosToUsd } from '../core/money.js';

export function getActivity(parts: SettledReadParts): Handler {
  return async (api, ctx) => {
    // openapi-backend validated the range (1..365); absent means the documented default.
    const raw = api.request.query.days;
    const days = raw === undefined ? 30 : Number(raw);
    // Read-your-writes: the last responses' records may still sit in this instance's settlement queue.
    await parts.settlements.flushed();
    const principal = principalOf(ctx);
    const rows = await dailyUsage(parts.db, {
      userId: principal.organizationId,
      memberUserId: usageMemberOf(principal),
      days,
      now: new Date(),
    });
    ctx.body = {
      data: rows.map((row) => ({
        date: row.date,
        model: row.model,
        requests: row.requests,
        prompt_tokens: row.promptTokens,
        completion_tokens: row.completionTokens,
        usage: nanosToUsd(row.costNanos),
        cache_hits: row.cacheHits,
        cache_savings: nanosToUsd(row.cacheSavedNanos),
      })),
    };
  };
}
