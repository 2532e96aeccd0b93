import type { KeyChangeParts } from './handler-parts.js';
import { actorOf } from '../services/audit-log.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { authorizeMemberManagement } from '../auth/key-scopes.js';
import { memberActor, removeMember } from '../services/organizations.js';

export function deleteOrganizationMember(parts: KeyChangeParts): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    authorizeMemberManagement(principal);
    const organizationId = String(api.request.params.organization_id);
    const userId = String(api.request.params.user_id);
    const actor = await memberActor(parts.db, principal, organizationId);
    await removeMember(parts.db, actor, {
      organizationId,
      userId,
      now: parts.now(),
      credentials: parts.credentials,
      by: actorOf(principal),
    });
    ctx.body = { removed: true, user_id: userId };
  };
}
