import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { findUser, listUsers } from '../services/users.js';
import { toWireUser } from './wire-admin.js';
import { queryString, queryInt } from './query-params.js';

export function adminListUsers(deps: Deps): Handler {
  return async (api, ctx) => {
    const email = queryString(api, 'email');
    if (email !== undefined) {
      const user = await findUser(deps.db, { email });
      ctx.body = { data: user ? [toWireUser(user)] : [], next_cursor: null };
      return;
    }
    const page = await listUsers(deps.db, { limit: queryInt(api, 'limit', 50), cursor: queryString(api, 'cursor') });
    ctx.body = { data: page.rows.map(toWireUser), next_cursor: page.nextCursor };
  };
}
