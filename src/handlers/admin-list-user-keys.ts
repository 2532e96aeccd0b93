import type { KeyListParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { requireUser } from '../services/users.js';
import { listKeys } from '../services/api-keys.js';
import { toWireApiKey } from './wire-api-key.js';

export function adminListUserKeys(parts: KeyListParts): Handler {
  return async (api, ctx) => {
    const user = await requireUser(parts.db, String(api.request.params.user_id));
    await parts.settlements.flushed();
    ctx.body = { data: (await listKeys(parts.db, user.id, parts.now())).map(toWireApiKey) };
  };
}
