import type { SettledReadParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { requireUser } from '../services/users.js';
import { ledgerPage } from '../services/credits.js';
import { toWireLedgerEntry } from './wire-admin.js';
import { queryInt, queryString } from './query-params.js';
import { GatewayError } from '../core/gateway-error.js';

const MAX_INT8 = 2n ** 63n - 1n;

export function adminListLedger(parts: SettledReadParts): Handler {
  return async (api, ctx) => {
    const user = await requireUser(parts.db, String(api.request.params.user_id));
    const cursor = queryString(api, 'cursor');
    // The schema allows 19 digits; above int8 it cannot be an id this API returned.
    if (cursor !== undefined && BigInt(cursor) > MAX_INT8)
      throw new GatewayError(400, 'Invalid request: cursor is not one this API returned', { field: 'cursor' });
    // Debits of requests this instance has answered are in the ledger once their settlement is written.
    await parts.settlements.flushed();
    const page = await ledgerPage(parts.db, {
      userId: user.id,
      limit: queryInt(api, 'limit', 100),
      before: cursor === undefined ? undefined : BigInt(cursor),
    });
    ctx.body = { data: page.rows.map(toWireLedgerEntry), next_cursor: page.nextCursor };
  };
}
