import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { GatewayError } from '../http/gateway-error.js';
import { softDeleteApiKey } from '../repositories/api-keys.js';

export function deleteApiKey(deps: Deps): Handler {
  return async (api, ctx) => {
    const keyId = String(api.request.params.key_id);
    // No id holds a NUL character (PostgreSQL text cannot even be asked for one): such a key does not exist.
    const deleted = !keyId.includes('\u0000') && (await softDeleteApiKey(deps.db, { userId: principalOf(ctx).userId, keyId, now: deps.now() }));
    // Another user's key answers exactly like a missing one, so ids cannot be probed.
    if (!deleted) throw new GatewayError(404, `API key ${keyId} not found`, { key_id: keyId });
    ctx.body = { deleted: true, key_id: keyId };
  };
}
