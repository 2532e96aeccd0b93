import type { SettledReadParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { GatewayError } from '../core/gateway-error.js';
import { usageReport, type UsageGroupBy } from '../services/usage-report.js';
import { toWireUsageRow, usageCsv } from './wire-admin.js';
import { queryString } from './query-params.js';

const MAX_RANGE_MS = 366 * 24 * 60 * 60 * 1000;

/** The report's [from, to) from the query: RFC 3339, `to` after `from`, at most 366 days. */
export function usageRange(api: Parameters<Handler>[0]): { from: Date; to: Date } {
  const from = new Date(queryString(api, 'from') ?? '');
  const to = new Date(queryString(api, 'to') ?? '');
  if (Number.isNaN(from.getTime()))
    throw new GatewayError(400, 'Invalid request: from must be an RFC 3339 date-time', { field: 'from' });
  if (Number.isNaN(to.getTime()))
    throw new GatewayError(400, 'Invalid request: to must be an RFC 3339 date-time', { field: 'to' });
  if (to.getTime() <= from.getTime())
    throw new GatewayError(400, 'Invalid request: to must be after from', { field: 'to' });
  // Bounds the scan a single request can ask for.
  if (to.getTime() - from.getTime() > MAX_RANGE_MS)
    throw new GatewayError(400, 'Invalid request: the range may span at most 366 days', { field: 'to' });
  return { from, to };
}

export function adminUsageReport(parts: SettledReadParts): Handler {
  return async (api, ctx) => {
    const { from, to } = usageRange(api);
    const groupBy = (queryString(api, 'group_by') ?? 'day') as UsageGroupBy;
    const filter = {
      organizationId: queryString(api, 'organization_id'),
      memberUserId: queryString(api, 'member_id'),
      keyId: queryString(api, 'key_id'),
    };
    await parts.settlements.flushed();
    const rows = await usageReport(parts.db, { from, to, groupBy, filter });
    if (queryString(api, 'format') === 'csv') {
      ctx.type = 'text/csv';
      ctx.set('content-disposition', `attachment; filename="usage-${groupBy}.csv"`);
      ctx.body = usageCsv(rows);
      return;
    }
    ctx.body = { from: from.toISOString(), to: to.toISOString(), group_by: groupBy, data: rows.map(toWireUsageRow) };
  };
}
