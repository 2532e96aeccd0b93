import type { KeyListParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { listKeys } from '../services/api-keys.js';
import { seesKeyOf } from '../auth/key-scopes.js';
import { toWireApiKey } from './wire-api-key.js';

export function listApiKeys(parts: KeyListParts): Handler {
  return async (_api, ctx) => {
    // Usage includes every request settled so far on this instance (read-your-writes).
    await parts.settlements.flushed();
    const principal = principalOf(ctx);
    const views = await listKeys(parts.db, principal.organizationId, parts.now());
    ctx.body = { data: views.filter((v) => seesKeyOf(principal, v.row.member_user_id)).map(toWireApiKey) };
  };
}
