import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { requireUser } from '../services/users.js';
import { revokePass } from '../services/pass.js';

export function adminRevokePass(deps: Deps): Handler {
  return async (api, ctx) => {
    const user = await requireUser(deps.db, String(api.request.params.user_id));
    ctx.body = { user_id: user.id, revoked_periods: await revokePass(deps.db, user.id, deps.now()) };
  };
}
