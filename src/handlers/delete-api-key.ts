import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { GatewayError } from '../core/gateway-error.js';
import { softDeleteApiKeyReturningHash } from '../repositories/api-keys.js';

export function deleteApiKey(deps: Deps): Handler {
  return async (api, ctx) => {
    const keyId = String(api.request.params.key_id);
    // No id holds a NUL character (PostgreSQL text cannot even be asked for one): such a key does not exist.
    const deletedHash = keyId.includes('\u0000')
      ? undefined
      : await softDeleteApiKeyReturningHash(deps.db, { userId: principalOf(ctx).userId, keyId, now: deps.now() });
    // Another user's key answers exactly like a missing one, so ids cannot be probed.
    if (deletedHash === undefined) throw new GatewayError(404, `API key ${keyId} not found`, { key_id: keyId });
    // This instance forgets the key now; other instances hear of it through the database notification.
    deps.credentials.invalidate(deletedHash);
    ctx.body = { deleted: true, key_id: keyId };
  };
}
