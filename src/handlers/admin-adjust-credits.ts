import type { HandlerParts } from './handler-parts.js';
import { actorOf } from '../services/audit-log.js';
import { principalOf } from '../http/authenticate.js';
import type { Handler } from '../http/openapi-router.js';
import { GatewayError } from '../core/gateway-error.js';
import { requireUser } from '../services/users.js';
import { adjustCredits } from '../services/credits.js';
import { nanosToUsd, usdToNanos } from '../core/money.js';

export function adminAdjustCredits(parts: Pick<HandlerParts, 'db' | 'leases' | 'logger'>): Handler {
  return async (api, ctx) => {
    const user = await requireUser(parts.db, String(api.request.params.user_id));
    const body = api.request.requestBody as { amount: number; note?: string };
    if (body.note?.includes('\u0000'))
      throw new GatewayError(400, 'Invalid request: note must not contain a NUL character', { field: 'note' });
    const amountNanos = usdToNanos(body.amount);
    const result = await adjustCredits(
      { db: parts.db, recalls: parts.leases.recalls, logger: parts.logger },
      { userId: user.id, amountNanos, note: body.note ?? null, by: actorOf(principalOf(ctx)) },
    );
    ctx.body = {
      user_id: user.id,
      amount: nanosToUsd(amountNanos),
      balance: nanosToUsd(result.balanceNanos),
      ledger_id: String(result.ledgerId),
    };
  };
}
