import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { findUser, listUsers } from '../services/users.js';
import { toWireUser } from './wire-admin.js';
import { queryString, queryInt } from './query-params.js';

export function adminListUsers(parts: Pick<HandlerParts, 'db'>): Handler {
  return async (api, ctx) => {
    const email = queryString(api, 'email');
    if (email !== undefined) {
      const user = await findUser(parts.db, { email });
      ctx.body = { data: user ? [toWireUser(user)] : [], next_cursor: null };
      return;
    }
    const page = await listUsers(parts.db, { limit: queryInt(api, 'limit', 50), cursor: queryString(api, 'cursor') });
    ctx.body = { data: page.rows.map(toWireUser), next_cursor: page.nextCursor };
  };
}
