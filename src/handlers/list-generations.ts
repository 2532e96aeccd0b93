import type { SettledReadParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { usageMemberOf } from '../auth/key-scopes.js';
import { recentGenerations } from '../services/generations.js';
import { toWireGeneration } from './wire-generation.js';

export function listGenerations(parts: SettledReadParts): Handler {
  return async (api, ctx) => {
    // openapi-backend validated the range (1..100); absent means the documented default.
    const raw = api.request.query.limit;
    const limit = raw === undefined ? 50 : Number(raw);
    await parts.settlements.flushed();
    const principal = principalOf(ctx);
    const rows = await recentGenerations(parts.db, {
      userId: principal.organizationId,
      memberUserId: usageMemberOf(principal),
      limit,
    });
    ctx.body = { data: rows.map(toWireGeneration) };
  };
}
