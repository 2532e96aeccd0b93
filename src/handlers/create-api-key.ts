import type { GrantParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { authorizeKeyCreation } from '../auth/key-scopes.js';
import { keyOwnerFor } from '../services/organizations.js';
import { createKey, describeKeys } from '../services/api-keys.js';
import { parseKeyKind, parseKeySettings, type WireKeySettings } from '../services/key-settings.js';
import { toWireApiKey } from './wire-api-key.js';
import { actorOf } from '../services/audit-log.js';

type CreateKeyBody = WireKeySettings & { organization_id?: string; member_id?: string };

export function createApiKey(parts: GrantParts): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    const body = (api.request.requestBody ?? {}) as CreateKeyBody;
    const kind = parseKeyKind(body.kind);
    // Before the settings are read: a credential that may not create keys learns nothing else about its request.
    authorizeKeyCreation(principal, kind);
    const owner = await keyOwnerFor(parts.db, principal, {
      organizationId: body.organization_id,
      memberUserId: body.member_id,
    });
    const now = parts.now();
    const settings = parseKeySettings(body, now, parts.config.guardrails);
    const { row, secret } = await createKey(parts.db, {
      ...owner,
      settings,
      kind,
      now,
      maxKeys: parts.config.maxKeysPerAccount,
      actor: actorOf(principal),
    });
    const [view] = await describeKeys(parts.db, [row], now);
    ctx.status = 201;
    ctx.set('cache-control', 'no-store');
    ctx.body = { ...toWireApiKey(view), key: secret };
  };
}
