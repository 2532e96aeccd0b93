import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { requireUser } from '../services/users.js';
import { listKeys } from '../services/api-keys.js';
import { toWireApiKey } from './wire-api-key.js';

export function adminListUserKeys(deps: Deps): Handler {
  return async (api, ctx) => {
    const user = await requireUser(deps.db, String(api.request.params.user_id));
    await deps.settlements.flushed();
    ctx.body = { data: (await listKeys(deps.db, user.id, deps.now())).map(toWireApiKey) };
  };
}
