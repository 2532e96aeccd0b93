import type { KeyChangeParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { GatewayError } from '../core/gateway-error.js';
import { requireUser } from '../services/users.js';
import { deleteKey } from '../services/api-keys.js';
import { actorOf } from '../services/audit-log.js';

export function adminDeleteUserKey(parts: KeyChangeParts): Handler {
  return async (api, ctx) => {
    const user = await requireUser(parts.db, String(api.request.params.user_id));
    const keyId = String(api.request.params.key_id);
    if (
      !(await deleteKey(parts.db, parts.credentials, {
        userId: user.id,
        keyId,
        now: parts.now(),
        actor: actorOf(principalOf(ctx)),
      }))
    ) {
      throw new GatewayError(404, `API key ${keyId} of user ${user.id} not found`, { key_id: keyId, user_id: user.id });
    }
    ctx.body = { deleted: true, key_id: keyId };
  };
}
