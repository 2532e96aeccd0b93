// GET /organizations/{organization_id}/usage: an organization's usage report for its members, grouped by day, model,
// key or member and filtered by member or key. An owner or admin reads everyone's; a member only its own keys' (its
// filter is itself, and naming another member is 403).
import type { SettledReadParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { managesMembers, requireManager } from '../auth/member-roles.js';
import { memberActor } from '../services/organizations.js';
import { usageReport, type UsageGroupBy } from '../services/usage-report.js';
import { usageRange } from './admin-usage-report.js';
import { toWireUsageRow } from './wire-admin.js';
import { queryString } from './query-params.js';

export function getOrganizationUsage(parts: SettledReadParts): Handler {
  return async (api, ctx) => {
    const organizationId = String(api.request.params.organization_id);
    const actor = await memberActor(parts.db, principalOf(ctx), organizationId);
    const { from, to } = usageRange(api);
    const groupBy = (queryString(api, 'group_by') ?? 'day') as UsageGroupBy;
    const requested = queryString(api, 'member_id');
    if (requested !== undefined && requested !== actor.userId) requireManager(actor, "Reading another member's usage");
    const memberUserId = managesMembers(actor) ? requested : actor.userId;
    await parts.settlements.flushed();
    const rows = await usageReport(parts.db, {
      from,
      to,
      groupBy,
      filter: { organizationId, memberUserId, keyId: queryString(api, 'key_id') },
    });
    ctx.body = { from: from.toISOString(), to: to.toISOString(), group_by: groupBy, data: rows.map(toWireUsageRow) };
  };
}
