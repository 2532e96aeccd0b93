import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { listApiKeysForUser } from '../repositories/api-keys.js';
import { toWireApiKey } from './wire-api-key.js';

export function listApiKeys(deps: Deps): Handler {
  return async (_api, ctx) => {
    const rows = await listApiKeysForUser(deps.db, principalOf(ctx).userId);
    ctx.body = { data: rows.map(toWireApiKey) };
  };
}
