// GET and DELETE /organizations/{id}/invitations[/{invitation_id}]: an owner or admin lists the pending invitations
// (never a token) and revokes one; the account token or a management key, as for the other member changes.
import { actorOf } from '../services/audit-log.js';
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { authorizeMemberManagement } from '../auth/key-scopes.js';
import { memberActor } from '../services/organizations.js';
import {
  listPendingInvitations,
  revokeInvitation,
  type PendingInvitation,
} from '../services/organization-invitations.js';

export function toWireInvitation(invitation: PendingInvitation) {
  return {
    invitation_id: invitation.id,
    organization_id: invitation.organizationId,
    role: invitation.role,
    created_by: invitation.createdBy,
    created_at: invitation.createdAt.toISOString(),
    expires_at: invitation.expiresAt.toISOString(),
  };
}

export function listOrganizationInvitations(parts: Pick<HandlerParts, 'db' | 'now'>): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    authorizeMemberManagement(principal);
    const organizationId = String(api.request.params.organization_id);
    const actor = await memberActor(parts.db, principal, organizationId);
    const pending = await listPendingInvitations(parts.db, actor, { organizationId, now: parts.now() });
    ctx.body = { data: pending.map(toWireInvitation) };
  };
}

export function deleteOrganizationInvitation(parts: Pick<HandlerParts, 'db'>): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    authorizeMemberManagement(principal);
    const organizationId = String(api.request.params.organization_id);
    const invitationId = String(api.request.params.invitation_id);
    const actor = await memberActor(parts.db, principal, organizationId);
    await revokeInvitation(parts.db, actor, { organizationId, invitationId, by: actorOf(principal) });
    ctx.body = { revoked: true, invitation_id: invitationId };
  };
}
