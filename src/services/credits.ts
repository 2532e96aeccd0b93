// Credits as the operator moves them (CLI `credits`, API /admin/users/{id}/credits): one path for both, through
// billing's adjustCredits, which recalls the credit running gateways lease before a removal.
import { recordAudit, type AuditActor } from './audit-log.js';
import type { DbOrTrx } from '../db/database.js';
import type { LedgerRow } from '../db/tables/credit-ledger.js';
import { GatewayError } from '../core/gateway-error.js';
import { getCreditAccount, InsufficientCreditsError, type CreditAccount } from '../repositories/credits.js';
import { adjustCredits as adjustLeasedCredits, type AdjustCreditsDeps } from '../billing/adjust-credits.js';
import { nanosToUsd } from '../core/money.js';

/**
 * Adds (positive) or removes (negative) credits with a ledger note. A removal larger than what requests in flight
 * leave (after recalling leases) is a 409 that says how much can be removed; nothing changes then.
 */
export async function adjustCredits(
  deps: AdjustCreditsDeps,
  input: { userId: string; amountNanos: bigint; note: string | null; by: AuditActor },
): Promise<{ balanceNanos: bigint; ledgerId: bigint }> {
  if (input.amountNanos === 0n)
    throw new GatewayError(400, 'Invalid request: amount must not be zero', { field: 'amount' });
  try {
    return await adjustLeasedCredits(deps, {
      ...input,
      written: (trx, result) =>
        recordAudit(trx, {
          actor: input.by,
          organizationId: input.userId,
          action: input.amountNanos > 0n ? 'credits.granted' : 'credits.removed',
          target: { type: 'credits', id: input.userId },
          after: {
            amount_nanos: input.amountNanos,
            balance_nanos: result.balanceNanos,
            ledger_id: result.ledgerId,
            note: input.note,
          },
        }),
    });
  } catch (err) {
    if (err instanceof InsufficientCreditsError) {
      throw new GatewayError(
        409,
        `Cannot remove ${nanosToUsd(err.requestedNanos)} USD: ${nanosToUsd(err.availableNanos)} USD is unreserved`,
        {
          reason: 'insufficient_credits',
          requested: nanosToUsd(err.requestedNanos),
          available: nanosToUsd(err.availableNanos),
        },
      );
    }
    throw err;
  }
}

export function creditAccount(db: DbOrTrx, userId: string): Promise<CreditAccount> {
  return getCreditAccount(db, userId);
}

/** One ledger row as the operator reads it. */
export type LedgerEntry = LedgerRow;

/** One page of a user's ledger, newest first; `before` is the id of the last entry of the previous page. */
export async function ledgerPage(
  db: DbOrTrx,
  input: { userId: string; limit: number; before?: bigint },
): Promise<{ rows: LedgerEntry[]; nextCursor: string | null }> {
  let query = db
    .selectFrom('credit_ledger')
    .selectAll()
    .where('user_id', '=', input.userId)
    .orderBy('id', 'desc')
    .limit(input.limit + 1);
  if (input.before !== undefined) query = query.where('id', '<', input.before);
  const rows = await query.execute();
  const more = rows.length > input.limit;
  const page = more ? rows.slice(0, input.limit) : rows;
  return { rows: page, nextCursor: more ? String(page[page.length - 1].id) : null };
}
