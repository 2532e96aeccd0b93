import type { HandlerParts } from './handler-parts.js';
import { actorOf } from '../services/audit-log.js';
import { principalOf } from '../http/authenticate.js';
import type { Handler } from '../http/openapi-router.js';
import { createUserAccount } from '../services/users.js';
import { toWireUser } from './wire-admin.js';

export function adminCreateUser(parts: Pick<HandlerParts, 'db'>): Handler {
  return async (api, ctx) => {
    const { email } = api.request.requestBody as { email: string };
    ctx.status = 201;
    ctx.body = toWireUser(await createUserAccount(parts.db, { email, by: actorOf(principalOf(ctx)) }));
  };
}
