import type { GrantParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { requireUser } from '../services/users.js';
import { createKey, describeKeys } from '../services/api-keys.js';
import { parseKeyKind, parseKeySettings, type WireKeySettings } from '../services/key-settings.js';
import { toWireApiKey } from './wire-api-key.js';
import { actorOf } from '../services/audit-log.js';

export function adminCreateUserKey(parts: GrantParts): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    const user = await requireUser(parts.db, String(api.request.params.user_id));
    const now = parts.now();
    const body = (api.request.requestBody ?? {}) as WireKeySettings;
    const settings = parseKeySettings(body, now, parts.config.guardrails);
    // The operator stands in for the account here, so it may create either kind, as the account token may.
    const { row, secret } = await createKey(parts.db, {
      // The user's personal organization, whose id is the user's.
      organizationId: user.id,
      memberUserId: user.id,
      settings,
      kind: parseKeyKind(body.kind),
      now,
      maxKeys: parts.config.maxKeysPerAccount,
      actor: actorOf(principal),
    });
    ctx.status = 201;
    ctx.set('cache-control', 'no-store');
    ctx.body = { ...toWireApiKey((await describeKeys(parts.db, [row], now))[0]), key: secret };
  };
}
