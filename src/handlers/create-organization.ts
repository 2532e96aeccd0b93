import type { HandlerParts } from './handler-parts.js';
import { actorOf } from '../services/audit-log.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { requireAccountToken } from '../auth/key-scopes.js';
import { createOrganization as create } from '../services/organizations.js';
import { toWireOrganization } from './wire-organization.js';

export function createOrganization(parts: Pick<HandlerParts, 'db'>): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    requireAccountToken(principal, 'Creating an organization');
    const body = api.request.requestBody as { name: string };
    const org = await create(parts.db, {
      name: body.name,
      ownerUserId: principal.memberUserId,
      by: actorOf(principal),
    });
    ctx.status = 201;
    ctx.body = toWireOrganization(org);
  };
}
