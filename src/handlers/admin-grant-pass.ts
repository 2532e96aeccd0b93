import type { GrantParts } from './handler-parts.js';
import { actorOf } from '../services/audit-log.js';
import { principalOf } from '../http/authenticate.js';
import type { Handler } from '../http/openapi-router.js';
import { requireUser } from '../services/users.js';
import { grantPass, showPass } from '../services/pass.js';

export function adminGrantPass(parts: GrantParts): Handler {
  return async (api, ctx) => {
    const user = await requireUser(parts.db, String(api.request.params.user_id));
    const { months = 1 } = (api.request.requestBody ?? {}) as { months?: number };
    const now = parts.now();
    await grantPass(parts.db, user.id, months, now, actorOf(principalOf(ctx)));
    ctx.body = {
      user_id: user.id,
      ...withoutNullUsage(await showPass(parts.db, parts.config.passQuota, user.id, now)),
    };
  };
}

/** The wire shape leaves `usage` out when no period runs (instead of null). */
export function withoutNullUsage<T extends { usage: unknown }>(pass: T): Omit<T, 'usage'> | T {
  if (pass.usage !== null) return pass;
  const { usage: _usage, ...rest } = pass;
  return rest;
}
