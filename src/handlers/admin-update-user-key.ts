import type { KeyChangeParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { GatewayError } from '../core/gateway-error.js';
import { requireUser } from '../services/users.js';
import { describeKeys, updateKey } from '../services/api-keys.js';
import { parseKeySettings, type WireKeySettings } from '../services/key-settings.js';
import { toWireApiKey } from './wire-api-key.js';
import { actorOf } from '../services/audit-log.js';

export function adminUpdateUserKey(parts: KeyChangeParts): Handler {
  return async (api, ctx) => {
    const user = await requireUser(parts.db, String(api.request.params.user_id));
    const keyId = String(api.request.params.key_id);
    const now = parts.now();
    const settings = parseKeySettings((api.request.requestBody ?? {}) as WireKeySettings, now, parts.config.guardrails);
    const row = keyId.includes('\u0000')
      ? undefined
      : await updateKey(parts.db, parts.credentials, {
          userId: user.id,
          keyId,
          settings,
          now,
          actor: actorOf(principalOf(ctx)),
        });
    if (!row)
      throw new GatewayError(404, `API key ${keyId} of user ${user.id} not found`, { key_id: keyId, user_id: user.id });
    ctx.body = toWireApiKey((await describeKeys(parts.db, [row], now))[0]);
  };
}
