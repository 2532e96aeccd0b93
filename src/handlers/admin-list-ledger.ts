import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { requireUser } from '../services/users.js';
import { ledgerPage } from '../services/credits.js';
import { toWireLedgerEntry } from './wire-admin.js';
import { queryInt, queryString } from './query-params.js';

export function adminListLedger(deps: Deps): Handler {
  return async (api, ctx) => {
    const user = await requireUser(deps.db, String(api.request.params.user_id));
    const cursor = queryString(api, 'cursor');
    // Debits of requests this instance has answered are in the ledger once their settlement is written.
    await deps.settlements.flushed();
    const page = await ledgerPage(deps.db, { userId: user.id, limit: queryInt(api, 'limit', 100), before: cursor === undefined ? undefined : BigInt(cursor) });
    ctx.body = { data: page.rows.map(toWireLedgerEntry), next_cursor: page.nextCursor };
  };
}
