import type { KeyChangeParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { GatewayError } from '../core/gateway-error.js';
import { authorizeKeyChange, authorizeKeyTarget, seesKeyOf } from '../auth/key-scopes.js';
import { describeKeys, findKey, updateKey } from '../services/api-keys.js';
import { parseKeySettings, type WireKeySettings } from '../services/key-settings.js';
import { toWireApiKey } from './wire-api-key.js';
import { actorOf } from '../services/audit-log.js';

export function updateApiKey(parts: KeyChangeParts): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    const keyId = String(api.request.params.key_id);
    // An API key is refused here, before any lookup: it changes no key, so it learns nothing about ids either.
    authorizeKeyChange(principal, 'update', keyId);
    const now = parts.now();
    const settings = parseKeySettings((api.request.requestBody ?? {}) as WireKeySettings, now, parts.config.guardrails);
    const found = await findKey(parts.db, principal.organizationId, keyId);
    const target = found && seesKeyOf(principal, found.member_user_id) ? found : undefined;
    if (target) authorizeKeyTarget(principal, 'update', target);
    const row =
      target &&
      (await updateKey(parts.db, parts.credentials, {
        userId: principal.organizationId,
        keyId,
        settings,
        now,
        actor: actorOf(principal),
      }));
    // Another user's key answers exactly like a missing one, so ids cannot be probed.
    if (!row) throw new GatewayError(404, `API key ${keyId} not found`, { key_id: keyId });
    ctx.body = toWireApiKey((await describeKeys(parts.db, [row], now))[0]);
  };
}
