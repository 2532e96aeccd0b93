import type { HandlerParts } from './handler-parts.js';
import { actorOf } from '../services/audit-log.js';
import { principalOf } from '../http/authenticate.js';
import type { Handler } from '../http/openapi-router.js';
import { createOrganization } from '../services/organizations.js';
import { toWireOrganization } from './wire-organization.js';

export function adminCreateOrganization(parts: Pick<HandlerParts, 'db'>): Handler {
  return async (api, ctx) => {
    const body = api.request.requestBody as { name: string; owner_user_id: string };
    const { role: _role, ...org } = await createOrganization(parts.db, {
      name: body.name,
      ownerUserId: body.owner_user_id,
      by: actorOf(principalOf(ctx)),
    });
    ctx.status = 201;
    ctx.body = toWireOrganization(org);
  };
}
