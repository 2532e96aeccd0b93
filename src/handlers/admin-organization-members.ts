// The operator's member routes: the operator stands in for an owner (auth/member-roles.ts).
import { actorOf } from '../services/audit-log.js';
import { principalOf } from '../http/authenticate.js';
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import type { MemberRole } from '../services/organizations.js';
import { OPERATOR } from '../auth/member-roles.js';
import { membersFor, putMember, removeMember, requireOrganization } from '../services/organizations.js';
import { toWireMember } from './wire-organization.js';

export function adminListOrganizationMembers(parts: Pick<HandlerParts, 'db'>): Handler {
  return async (api, ctx) => {
    const org = await requireOrganization(parts.db, String(api.request.params.organization_id));
    ctx.body = { data: (await membersFor(parts.db, OPERATOR, org.id)).map(toWireMember) };
  };
}

export function adminPutOrganizationMember(parts: Pick<HandlerParts, 'db' | 'now'>): Handler {
  return async (api, ctx) => {
    const { role } = api.request.requestBody as { role: MemberRole };
    const member = await putMember(parts.db, OPERATOR, {
      organizationId: String(api.request.params.organization_id),
      userId: String(api.request.params.user_id),
      role,
      by: actorOf(principalOf(ctx)),
      now: parts.now(),
    });
    ctx.body = toWireMember(member);
  };
}

export function adminDeleteOrganizationMember(parts: Pick<HandlerParts, 'credentials' | 'db' | 'now'>): Handler {
  return async (api, ctx) => {
    const userId = String(api.request.params.user_id);
    await removeMember(parts.db, OPERATOR, {
      credentials: parts.credentials,
      organizationId: String(api.request.params.organization_id),
      userId,
      now: parts.now(),
      by: actorOf(principalOf(ctx)),
    });
    ctx.body = { removed: true, user_id: userId };
  };
}
