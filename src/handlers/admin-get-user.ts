import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { requireUser } from '../services/users.js';
import { toWireUser } from './wire-admin.js';

export function adminGetUser(deps: Deps): Handler {
  return async (api, ctx) => {
    ctx.body = toWireUser(await requireUser(deps.db, String(api.request.params.user_id)));
  };
}
