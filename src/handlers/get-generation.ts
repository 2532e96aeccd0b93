import type { SettledReadParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { usageMemberOf } from '../auth/key-scopes.js';
import { GatewayError } from '../core/gateway-error.js';
import { findGeneration } from '../services/generations.js';
import { toWireGeneration } from './wire-generation.js';

export function getGeneration(parts: SettledReadParts): Handler {
  return async (api, ctx) => {
    const id = String(api.request.query.id);
    // Read-your-writes: a generation answered a moment ago may still sit in this instance's settlement queue.
    await parts.settlements.flushed();
    const principal = principalOf(ctx);
    const row = await findGeneration(parts.db, {
      userId: principal.organizationId,
      memberUserId: usageMemberOf(principal),
      id,
    });
    // Another user's generation answers exactly like a missing one.
    if (!row) throw new GatewayError(404, `Generation ${id} not found`, { id });
    ctx.body = { data: toWireGeneration(row) };
  };
}
