// The audit log: an organization's for its owners and admins, every organization's for the operator.
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { authorizeMemberManagement } from '../auth/key-scopes.js';
import { requireManager } from '../auth/member-roles.js';
import { memberActor } from '../services/organizations.js';
import { auditPage } from '../services/audit-log.js';
import { toWireAuditEntry } from './wire-webhook.js';
import { queryInt, queryString } from './query-params.js';

export function listOrganizationAuditLog(parts: Pick<HandlerParts, 'db'>): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    authorizeMemberManagement(principal);
    const organizationId = String(api.request.params.organization_id);
    requireManager(await memberActor(parts.db, principal, organizationId), 'Reading the audit log');
    const page = await auditPage(parts.db, {
      organizationId,
      action: queryString(api, 'action'),
      actorId: queryString(api, 'actor'),
      cursor: queryString(api, 'cursor'),
      limit: queryInt(api, 'limit', 100),
    });
    ctx.body = { data: page.rows.map(toWireAuditEntry), next_cursor: page.nextCursor };
  };
}

export function adminListAuditLog(parts: Pick<HandlerParts, 'db'>): Handler {
  return async (api, ctx) => {
    const page = await auditPage(parts.db, {
      organizationId: queryString(api, 'organization_id'),
      action: queryString(api, 'action'),
      actorId: queryString(api, 'actor'),
      cursor: queryString(api, 'cursor'),
      limit: queryInt(api, 'limit', 100),
    });
    ctx.body = { data: page.rows.map(toWireAuditEntry), next_cursor: page.nextCursor };
  };
}
