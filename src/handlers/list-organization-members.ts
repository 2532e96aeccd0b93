import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { memberActor, membersFor } from '../services/organizations.js';
import { toWireMember } from './wire-organization.js';

export function listOrganizationMembers(parts: Pick<HandlerParts, 'db'>): Handler {
  return async (api, ctx) => {
    const organizationId = String(api.request.params.organization_id);
    const actor = await memberActor(parts.db, principalOf(ctx), organizationId);
    ctx.body = { data: (await membersFor(parts.db, actor, organizationId)).map(toWireMember) };
  };
}
