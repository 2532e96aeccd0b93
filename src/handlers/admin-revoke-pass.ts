import type { HandlerParts } from './handler-parts.js';
import { actorOf } from '../services/audit-log.js';
import { principalOf } from '../http/authenticate.js';
import type { Handler } from '../http/openapi-router.js';
import { requireUser } from '../services/users.js';
import { revokePass } from '../services/pass.js';

export function adminRevokePass(parts: Pick<HandlerParts, 'db' | 'now'>): Handler {
  return async (api, ctx) => {
    const user = await requireUser(parts.db, String(api.request.params.user_id));
    ctx.body = {
      user_id: user.id,
      revoked_periods: await revokePass(parts.db, { userId: user.id, now: parts.now(), by: actorOf(principalOf(ctx)) }),
    };
  };
}
