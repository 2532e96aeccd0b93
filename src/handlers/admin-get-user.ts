import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { requireUser } from '../services/users.js';
import { toWireUser } from './wire-admin.js';

export function adminGetUser(parts: Pick<HandlerParts, 'db'>): Handler {
  return async (api, ctx) => {
    ctx.body = toWireUser(await requireUser(parts.db, String(api.request.params.user_id)));
  };
}
