import type { HandlerParts } from './handler-parts.js';
import { actorOf } from '../services/audit-log.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { requireAccountToken } from '../auth/key-scopes.js';
import { acceptInvitation } from '../services/organization-invitations.js';
import { toWireOrganization } from './wire-organization.js';

export function acceptOrganizationInvitation(parts: Pick<HandlerParts, 'db' | 'now'>): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    requireAccountToken(principal, 'Accepting an invitation');
    const org = await acceptInvitation(parts.db, {
      token: String(api.request.params.token),
      userId: principal.memberUserId,
      now: parts.now(),
      by: actorOf(principal),
    });
    ctx.body = toWireOrganization(org);
  };
}
