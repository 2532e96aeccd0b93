import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { GatewayError } from '../core/gateway-error.js';
import { describeKeys, updateKey } from '../services/api-keys.js';
import { parseKeySettings, type WireKeySettings } from '../services/key-settings.js';
import { toWireApiKey } from './wire-api-key.js';

export function updateApiKey(deps: Deps): Handler {
  return async (api, ctx) => {
    const keyId = String(api.request.params.key_id);
    const now = deps.now();
    const settings = parseKeySettings((api.request.requestBody ?? {}) as WireKeySettings, now);
    const row = keyId.includes('\u0000')
      ? undefined
      : await updateKey(deps.db, deps.credentials, { userId: principalOf(ctx).userId, keyId, settings, now });
    // Another user's key answers exactly like a missing one, so ids cannot be probed.
    if (!row) throw new GatewayError(404, `API key ${keyId} not found`, { key_id: keyId });
    ctx.body = toWireApiKey((await describeKeys(deps.db, [row], now))[0]);
  };
}
