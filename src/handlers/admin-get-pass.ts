import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { requireUser } from '../services/users.js';
import { showPass } from '../services/pass.js';
import { withoutNullUsage } from './admin-grant-pass.js';

export function adminGetPass(deps: Deps): Handler {
  return async (api, ctx) => {
    const user = await requireUser(deps.db, String(api.request.params.user_id));
    await deps.settlements.flushed();
    ctx.body = { user_id: user.id, ...withoutNullUsage(await showPass(deps.db, deps.config.passQuota, user.id, deps.now())) };
  };
}
