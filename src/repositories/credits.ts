import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import type { Database, DbOrTrx } from '../db/database.js';
import { inTransaction } from '../db/in-transaction.js';
import type { LedgerRow } from '../db/tables/credit-ledger.js';

// Invariants every function here keeps (a table CHECK backs the last):
//   balance = total_granted - total_used,  reserved >= 0,
//   and a reservation (or lease grant) is taken only while balance - reserved >= amount.
// Settlement debits a request's whole cost (migration 0011): a cost above the request's upper bound may take the
// balance below what others hold, or below zero. That is debt, never written off: a negative balance admits no
// paid request (402) until grants pay it off.

export interface CreditAccount {
  balanceNanos: bigint;
  reservedNanos: bigint;
  totalGrantedNanos: bigint;
  totalUsedNanos: bigint;
}

/** A negative grant (adjustment) larger than the unreserved balance. */
export class InsufficientCreditsError extends Error {
  constructor(
    readonly requestedNanos: bigint,
    readonly availableNanos: bigint,
  ) {
    super(`cannot remove ${requestedNanos} nanos of credit: only ${availableNanos} available`);
    this.name = 'InsufficientCreditsError';
  }
}

export type ReserveResult = { ok: true } | { ok: false; availableNanos: bigint };
const ZERO_ACCOUNT: CreditAccount = { balanceNanos: 0n, reservedNanos: 0n, totalGrantedNanos: 0n, totalUsedNanos: 0n };

export async function getCreditAccount(db: DbOrTrx, userId: string): Promise<CreditAccount> {
  const row = await db.selectFrom('credit_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (row === undefined) return { ...ZERO_ACCOUNT };
  return {
    balanceNanos: row.balance_nanos,
    reservedNanos: row.reserved_nanos,
    totalGrantedNanos: row.total_granted_nanos,
    totalUsedNanos: row.total_used_nanos,
  };
}

/**
 * Adds credits (positive amount, ledger kind `grant`) or removes them (negative, kind `adjustment`).
 * A removal may not cut into reserved credits: it throws `InsufficientCreditsError` and changes nothing.
 */
export async function grantCredits(
  db: DbOrTrx,
  input: {
    userId: string;
    amountNanos: bigint;
    note?: string | null;
    /** Runs in the grant's transaction once it is written (the audit log's entry). */
    written?: (trx: DbOrTrx, result: { balanceNanos: bigint; ledgerId: bigint }) => Promise<void>;
  },
): Promise<{ balanceNanos: bigint; ledgerId: bigint }> {
  const { userId, amountNanos } = input;
  if (amountNanos === 0n) throw new RangeError('amountNanos must not be zero');
  return inTransaction(db, async (trx) => {
    let balanceNanos: bigint;
    if (amountNanos > 0n) {
      const row = await trx
        .insertInto('credit_accounts')
        .values({ user_id: userId, balance_nanos: amountNanos, total_granted_nanos: amountNanos })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet((eb) => ({
            balance_nanos: eb('credit_accounts.balance_nanos', '+', eb.ref('excluded.balance_nanos')),
            total_granted_nanos: eb('credit_accounts.total_granted_nanos', '+', eb.ref('excluded.total_granted_nanos')),
            updated_at: sql<Date>`now()`,
          })),
        )
        .returning('balance_nanos')
        .executeTakeFirstOrThrow();
      balanceNanos = row.balance_nanos;
    } else {
      const removal = -amountNanos;
      const row = await trx
        .updateTable('credit_accounts')
        .set((eb) => ({
          balance_nanos: eb('balance_nanos', '-', removal),
          total_granted_nanos: eb('total_granted_nanos', '-', removal),
          updated_at: sql<Date>`now()`,
        }))
        .where('user_id', '=', userId)
        .where((eb) => eb(eb('balance_nanos', '-', eb.ref('reserved_nanos')), '>=', removal))
        .returning('balance_nanos')
        .executeTakeFirst();
      if (row === undefined) {
        const account = await getCreditAccount(trx, userId);
        // In debt the unreserved balance is negative: nothing can be removed.
        const available = account.balanceNanos - account.reservedNanos;
        throw new InsufficientCreditsError(removal, available > 0n ? available : 0n);
      }
      balanceNanos = row.balance_nanos;
    }
    const ledger = await trx
      .insertInto('credit_ledger')
      .values({
        user_id: userId,
        kind: amountNanos > 0n ? 'grant' : 'adjustment',
        amount_nanos: amountNanos,
        note: input.note ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await input.written?.(trx, { balanceNanos, ledgerId: ledger.id });
    return { balanceNanos, ledgerId: ledger.id };
  });
}

/**
 * Holds `amountNanos` of the unreserved balance, atomically: one conditional UPDATE, so concurrent
 * reservations on any number of instances can never together exceed the balance.
 */
export async function reserveCredits(
  db: DbOrTrx,
  input: { userId: string; amountNanos: bigint },
): Promise<ReserveResult> {
  const { userId, amountNanos } = input;
  if (amountNanos < 0n) throw new RangeError('amountNanos must not be negative');
  if (amountNanos === 0n) return { ok: true };
  const reserved = await db
    .updateTable('credit_accounts')
    .set((eb) => ({ reserved_nanos: eb('reserved_nanos', '+', amountNanos) }))
    .where('user_id', '=', userId)
    .where((eb) => eb(eb('balance_nanos', '-', eb.ref('reserved_nanos')), '>=', amountNanos))
    // This statement's own commit skips the WAL flush wait (it is a hold, not money moved): a reservation lost
    // to a database crash only frees credit in-flight requests held, and their settle debits at most the balance.
    .where(sql<boolean>`(select set_config('synchronous_commit', 'off', true)) is not null`)
    .returning('user_id')
    .executeTakeFirst();
  if (reserved !== undefined) return { ok: true };
  // Informational only (it may be stale by the time the caller reads it): the decision was the UPDATE.
  const account = await getCreditAccount(db, userId);
  const available = account.balanceNanos - account.reservedNanos;
  return { ok: false, availableNanos: available > 0n ? available : 0n };
}

/**
 * Locks the accounts of these users (those that exist), in user order: every writer takes account locks this way,
 * so concurrent transactions over several accounts cannot deadlock.
 */
export async function lockCreditAccounts(
  trx: Transaction<Database>,
  userIds: readonly string[],
): Promise<{ user_id: string; balance_nanos: bigint; reserved_nanos: bigint }[]> {
  if (userIds.length === 0) return [];
  return trx
    .selectFrom('credit_accounts')
    .select(['user_id', 'balance_nanos', 'reserved_nanos'])
    .where('user_id', 'in', [...new Set(userIds)].sort())
    .orderBy('user_id')
    .forUpdate()
    .execute();
}

/** Gives a reservation back unused (upstream failed before any cost). Clamped at zero. */
export async function releaseCredits(db: DbOrTrx, input: { userId: string; amountNanos: bigint }): Promise<void> {
  if (input.amountNanos < 0n) throw new RangeError('amountNanos must not be negative');
  if (input.amountNanos === 0n) return;
  await db
    .updateTable('credit_accounts')
    .set((eb) => ({ reserved_nanos: sql<bigint>`greatest(${eb.ref('reserved_nanos')} - ${input.amountNanos}, 0)` }))
    .where('user_id', '=', input.userId)
    .execute();
}

/** Newest ledger entries first. */
export async function listLedger(db: DbOrTrx, userId: string, limit: number): Promise<LedgerRow[]> {
  return db
    .selectFrom('credit_ledger')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
