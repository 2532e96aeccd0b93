import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { createKey, describeKeys } from '../services/api-keys.js';
import { parseKeySettings, type WireKeySettings } from '../services/key-settings.js';
import { toWireApiKey } from './wire-api-key.js';

export function createApiKey(deps: Deps): Handler {
  return async (api, ctx) => {
    const now = deps.now();
    const settings = parseKeySettings((api.request.requestBody ?? {}) as WireKeySettings, now);
    const { row, secret } = await createKey(deps.db, { userId: principalOf(ctx).userId, settings, now });
    const [view] = await describeKeys(deps.db, [row], now);
    ctx.status = 201;
    ctx.set('cache-control', 'no-store');
    ctx.body = { ...toWireApiKey(view), key: secret };
  };
}
