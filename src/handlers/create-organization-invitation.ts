import type { HandlerParts } from './handler-parts.js';
import { actorOf } from '../services/audit-log.js';
import type { Handler } from '../http/openapi-router.js';
import type { MemberRole } from '../services/organizations.js';
import { principalOf } from '../http/authenticate.js';
import { authorizeMemberManagement } from '../auth/key-scopes.js';
import { memberActor } from '../services/organizations.js';
import { createInvitation } from '../services/organization-invitations.js';

export function createOrganizationInvitation(parts: Pick<HandlerParts, 'db' | 'now'>): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    authorizeMemberManagement(principal);
    const organizationId = String(api.request.params.organization_id);
    const actor = await memberActor(parts.db, principal, organizationId);
    const body = (api.request.requestBody ?? {}) as { role?: MemberRole };
    const invitation = await createInvitation(parts.db, actor, {
      organizationId,
      role: body.role ?? 'member',
      now: parts.now(),
      by: actorOf(principal),
    });
    ctx.status = 201;
    ctx.set('cache-control', 'no-store');
    ctx.body = {
      invitation_id: invitation.id,
      organization_id: invitation.organizationId,
      role: invitation.role,
      token: invitation.token,
      expires_at: invitation.expiresAt.toISOString(),
    };
  };
}
