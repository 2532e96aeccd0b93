// Step 7 (settle) of a request: its generation record and, for credits, its single ledger debit, written in one
// transaction; pass (subscription) requests turn their quota reservation into the real reference cost.
import type { DbOrTrx } from '../db/database.js';
import type { NewGeneration } from '../db/tables/generations.js';
import {
  settleGenerationBatch,
  type GenerationSettlement,
  type SettledBudgetHold,
} from '../repositories/settlements.js';
import type { Admission } from './admission.js';
import type { BudgetPoolHold } from './budget-leases.js';

export interface Settlement {
  admission: Admission;
  record: NewGeneration;
}

/**
 * Writes generation records and, for credits, their single debits — atomically and at most once (a record
 * already written is skipped with its settlement). Reservations are released in the same statement. For pass,
 * the quota reservation becomes the record's reference cost (or is dropped when it is 0). Returns how many records
 * were new.
 */
export function settleGenerations(db: DbOrTrx, settlements: readonly Settlement[]): Promise<number> {
  return settleGenerationBatch(
    db,
    settlements.map(({ admission, record }) => settlementOf(admission, record)),
  );
}

function settlementOf(admission: Admission, record: NewGeneration): GenerationSettlement {
  const settlement = settlementKindOf(admission, record);
  const { budgets, keyHold } = admission;
  if (budgets === undefined && keyHold === undefined) return settlement;
  const holds = budgets?.holds.map(settledHold) ?? [];
  // The key's budget settles as the others do (its hold is only sent for credits: settlementKindOf).
  if (keyHold !== undefined && settlement.settle === 'credits') holds.unshift(settledHold(keyHold));
  return { ...settlement, budgets: { holds, sessionHash: budgets?.session?.hash } };
}

/** A lease reclaimed meanwhile was given back whole: the cost then only adds to the period's spend. */
function settledHold(hold: BudgetPoolHold): SettledBudgetHold {
  return {
    budgetId: hold.budgetId,
    periodStart: hold.periodStart,
    heldNanos: hold.heldNanos,
    holder: hold.lease === undefined ? undefined : hold.lease.lost ? LOST_HOLDER : hold.holder,
  };
}

/** A holder no lease row has: its hold releases nothing (the reclamation gave the lease back). */
const LOST_HOLDER = '';

function settlementKindOf(admission: Admission, record: NewGeneration): GenerationSettlement {
  if (admission.mode === 'pass') return { record, settle: 'pass', passUsageId: admission.passUsageId };
  if (admission.mode !== 'credits') return { record, settle: 'none' };
  // Decided when written, not when queued: a lease reclaimed meanwhile (this process looked dead) was already
  // given back to the account, hold included, so the request then pays only out of unreserved money.
  const { lease } = admission;
  const leased = lease !== undefined && !lease.lost;
  return {
    record,
    settle: 'credits',
    reservedNanos: lease === undefined || leased ? admission.reservedNanos : 0n,
    leaseHolder: leased ? lease.holder : undefined,
  };
}

export function settleGeneration(db: DbOrTrx, admission: Admission, record: NewGeneration): Promise<number> {
  return settleGenerations(db, [{ admission, record }]);
}
