import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { listKeys } from '../services/api-keys.js';
import { toWireApiKey } from './wire-api-key.js';

export function listApiKeys(parts: Pick<HandlerParts, 'db' | 'now' | 'settlements'>): Handler {
  return async (_api, ctx) => {
    // Usage includes every request settled so far on this instance (read-your-writes).
    await parts.settlements.flushed();
    const views = await listKeys(parts.db, principalOf(ctx).organizationId, parts.now());
    ctx.body = { data: views.map(toWireApiKey) };
  };
}
