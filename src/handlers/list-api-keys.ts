import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { listKeys } from '../services/api-keys.js';
import { toWireApiKey } from './wire-api-key.js';

export function listApiKeys(deps: Deps): Handler {
  return async (_api, ctx) => {
    // Usage includes every request settled so far on this instance (read-your-writes).
    await deps.settlements.flushed();
    const views = await listKeys(deps.db, principalOf(ctx).userId, deps.now());
    ctx.body = { data: views.map(toWireApiKey) };
  };
}
