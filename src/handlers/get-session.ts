import type { SettledReadParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { sessionOf } from '../services/sessions.js';

export function getSession(parts: SettledReadParts): Handler {
  return async (api, ctx) => {
    const id = String(api.request.params.id);
    // Read-your-writes: a request answered a moment ago may still sit in this instance's settlement queue.
    await parts.settlements.flushed();
    ctx.body = await sessionOf(parts.db, principalOf(ctx).organizationId, id);
  };
}
