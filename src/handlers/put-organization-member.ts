import type { HandlerParts } from './handler-parts.js';
import { actorOf } from '../services/audit-log.js';
import type { Handler } from '../http/openapi-router.js';
import type { MemberRole } from '../services/organizations.js';
import { principalOf } from '../http/authenticate.js';
import { authorizeMemberManagement } from '../auth/key-scopes.js';
import { memberActor, putMember } from '../services/organizations.js';
import { toWireMember } from './wire-organization.js';

export function putOrganizationMember(parts: Pick<HandlerParts, 'db' | 'now'>): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    authorizeMemberManagement(principal);
    const organizationId = String(api.request.params.organization_id);
    const actor = await memberActor(parts.db, principal, organizationId);
    const { role } = api.request.requestBody as { role: MemberRole };
    const member = await putMember(parts.db, actor, {
      organizationId,
      userId: String(api.request.params.user_id),
      role,
      by: actorOf(principal),
      now: parts.now(),
    });
    ctx.body = toWireMember(member);
  };
}
