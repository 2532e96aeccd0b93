import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { createUserAccount } from '../services/users.js';
import { toWireUser } from './wire-admin.js';

export function adminCreateUser(deps: Deps): Handler {
  return async (api, ctx) => {
    const { email } = api.request.requestBody as { email: string };
    ctx.status = 201;
    ctx.body = toWireUser(await createUserAccount(deps.db, { email }));
  };
}
