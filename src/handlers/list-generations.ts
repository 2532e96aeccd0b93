import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { recentGenerations } from '../services/generations.js';
import { toWireGeneration } from './wire-generation.js';

export function listGenerations(deps: Deps): Handler {
  return async (api, ctx) => {
    // openapi-backend validated the range (1..100); absent means the documented default.
    const raw = api.request.query.limit;
    const limit = raw === undefined ? 50 : Number(raw);
    await deps.settlements.flushed();
    const rows = await recentGenerations(deps.db, { userId: principalOf(ctx).userId, limit });
    ctx.body = { data: rows.map(toWireGeneration) };
  };
}
