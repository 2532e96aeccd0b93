// X-Modelgate-Session-Budget: the budget in USD a client gives the session its request belongs to. The first value
// sets the session's budget; a later lower one lowers it, a later higher one is ignored (a client can never widen
// what its session was given). A request without a session key has no session for it to apply to.
import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../core/gateway-error.js';
import { usdToNanos } from '../core/money.js';

export const SESSION_BUDGET_HEADER = 'x-modelgate-session-budget';

/** The header's budget in nano-USD; undefined when absent; 400 when it is not a non-negative decimal. */
export function sessionBudgetOf(headers: IncomingHttpHeaders): bigint | undefined {
  const value = headers[SESSION_BUDGET_HEADER];
  if (value === undefined) return undefined;
  const text = (Array.isArray(value) ? value[0] : value).trim();
  if (!/^\d{1,12}(\.\d{1,9})?$/.test(text))
    throw new GatewayError(
      400,
      `X-Modelgate-Session-Budget must be a non-negative amount of USD such as 2.50, not ${JSON.stringify(text.slice(0, 40))}.`,
      { header: 'X-Modelgate-Session-Budget' },
    );
  return usdToNanos(text);
}
