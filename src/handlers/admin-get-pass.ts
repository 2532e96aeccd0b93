import type { LimitsViewParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { requireUser } from '../services/users.js';
import { showPass } from '../services/pass.js';
import { withoutNullUsage } from './admin-grant-pass.js';

export function adminGetPass(parts: LimitsViewParts): Handler {
  return async (api, ctx) => {
    const user = await requireUser(parts.db, String(api.request.params.user_id));
    await parts.settlements.flushed();
    ctx.body = {
      user_id: user.id,
      ...withoutNullUsage(await showPass(parts.db, parts.config.passQuota, user.id, parts.now())),
    };
  };
}
