import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { issueApiKey } from '../auth/issue-credentials.js';
import { GatewayError } from '../core/gateway-error.js';
import { toWireApiKey } from './wire-api-key.js';

export function createApiKey(deps: Deps): Handler {
  return async (api, ctx) => {
    const body = (api.request.requestBody ?? {}) as { name?: string };
    if (body.name?.includes('\u0000')) throw new GatewayError(400, 'Invalid request: name must not contain a NUL character', { field: 'name' });
    const { row, secret } = await issueApiKey(deps.db, {
      userId: principalOf(ctx).userId,
      name: body.name?.trim() || 'API key',
    });
    ctx.status = 201;
    ctx.set('cache-control', 'no-store');
    ctx.body = { ...toWireApiKey(row), key: secret };
  };
}
