import type { KeyChangeParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { GatewayError } from '../core/gateway-error.js';
import { authorizeKeyChange, authorizeKeyTarget, seesKeyOf } from '../auth/key-scopes.js';
import { deleteKey, findKey } from '../services/api-keys.js';
import { actorOf } from '../services/audit-log.js';

export function deleteApiKey(parts: KeyChangeParts): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    const keyId = String(api.request.params.key_id);
    // An API key may delete only itself: any other id is refused before any lookup.
    authorizeKeyChange(principal, 'delete', keyId);
    const found = await findKey(parts.db, principal.organizationId, keyId);
    const target = found && seesKeyOf(principal, found.member_user_id) ? found : undefined;
    if (target) authorizeKeyTarget(principal, 'delete', target);
    // This instance forgets the key at once (deleteKey invalidates it); others hear of it through the database
    // notification.
    const deleted =
      target !== undefined &&
      (await deleteKey(parts.db, parts.credentials, {
        userId: principal.organizationId,
        keyId,
        now: parts.now(),
        actor: actorOf(principal),
      }));
    // Another user's key answers exactly like a missing one, so ids cannot be probed.
    if (!deleted) throw new GatewayError(404, `API key ${keyId} not found`, { key_id: keyId });
    ctx.body = { deleted: true, key_id: keyId };
  };
}
