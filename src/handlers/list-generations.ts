import type { SettledReadParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { recentGenerations } from '../services/generations.js';
import { toWireGeneration } from './wire-generation.js';

export function listGenerations(parts: SettledReadParts): Handler {
  return async (api, ctx) => {
    // openapi-backend validated the range (1..100); absent means the documented default.
    const raw = api.request.query.limit;
    const limit = raw === undefined ? 50 : Number(raw);
    await parts.settlements.flushed();
    const rows = await recentGenerations(parts.db, { userId: principalOf(ctx).organizationId, limit });
    ctx.body = { data: rows.map(toWireGeneration) };
  };
}
