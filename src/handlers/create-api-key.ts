import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { authorizeKeyCreation } from '../auth/key-scopes.js';
import { createKey, describeKeys } from '../services/api-keys.js';
import { parseKeyKind, parseKeySettings, type WireKeySettings } from '../services/key-settings.js';
import { toWireApiKey } from './wire-api-key.js';

export function createApiKey(parts: Pick<HandlerParts, 'config' | 'db' | 'now'>): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    const body = (api.request.requestBody ?? {}) as WireKeySettings;
    const kind = parseKeyKind(body.kind);
    // Before the settings are read: a credential that may not create keys learns nothing else about its request.
    authorizeKeyCreation(principal, kind);
    const now = parts.now();
    const settings = parseKeySettings(body, now);
    const { row, secret } = await createKey(parts.db, {
      organizationId: principal.organizationId,
      memberUserId: principal.memberUserId,
      settings,
      kind,
      now,
      maxKeys: parts.config.maxKeysPerAccount,
    });
    const [view] = await describeKeys(parts.db, [row], now);
    ctx.status = 201;
    ctx.set('cache-control', 'no-store');
    ctx.body = { ...toWireApiKey(view), key: secret };
  };
}
