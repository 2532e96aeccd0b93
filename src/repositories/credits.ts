import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import type { Database, Db, DbOrTrx } from '../db/database.js';
import { inTransaction } from '../db/in-transaction.js';
import type { LedgerRow } from '../db/tables/credit-ledger.js';

// Invariants every function here keeps (the table CHECKs back the last two):
//   balance = total_granted - total_used,  balance >= reserved >= 0.
// `balance >= reserved` is what makes a successful reservation a promise that settle can keep.

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
export type SettleResult =
  | { alreadySettled: true }
  | { alreadySettled: false; debitedNanos: bigint; balanceNanos: bigint };

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
  input: { userId: string; amountNanos: bigint; note?: string | null },
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
        throw new InsufficientCreditsError(removal, account.balanceNanos - account.reservedNanos);
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
 * Ends a reservation with the real cost, in one transaction: releases `reservedNanos`, debits the
 * cost and writes the generation's single `debit` ledger row. A repeated settle for the same
 * generation changes nothing and returns `{ alreadySettled: true }`.
 * If the cost exceeds the reservation, only what is not reserved by other requests is debited
 * (so their settles still succeed and the balance never goes negative); `debitedNanos` says how much.
 */
export async function settleCredits(
  db: DbOrTrx,
  input: { userId: string; generationId: string; reservedNanos: bigint; costNanos: bigint },
): Promise<SettleResult> {
  const { userId, generationId, reservedNanos, costNanos } = input;
  if (reservedNanos < 0n || costNanos < 0n) throw new RangeError('reservedNanos and costNanos must not be negative');
  return inTransaction(db, async (trx) => {
    // Row lock: the amount we may debit depends on the balance and the other reservations.
    const [account] = await lockCreditAccounts(trx, [userId]);
    const balance = account?.balance_nanos ?? 0n;
    const debit = debitFor(balance, account?.reserved_nanos ?? 0n, reservedNanos, costNanos);

    const ledger = await trx
      .insertInto('credit_ledger')
      .values({ user_id: userId, kind: 'debit', amount_nanos: -debit, generation_id: generationId })
      .onConflict((oc) => oc.column('generation_id').where('kind', '=', 'debit').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (ledger === undefined) return { alreadySettled: true };

    if (account !== undefined) {
      await trx
        .updateTable('credit_accounts')
        .set((eb) => ({
          balance_nanos: eb('balance_nanos', '-', debit),
          // Clamped: a caller releasing more than it holds must not block recording the debit.
          reserved_nanos: sql<bigint>`greatest(${eb.ref('reserved_nanos')} - ${reservedNanos}, 0)`,
          total_used_nanos: eb('total_used_nanos', '+', debit),
          updated_at: sql<Date>`now()`,
        }))
        .where('user_id', '=', userId)
        .execute();
    }
    return { alreadySettled: false, debitedNanos: debit, balanceNanos: balance - debit };
  });
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

/**
 * What a settlement may debit: the cost, but never money other requests have reserved, so their settles still
 * succeed and the balance never goes negative.
 */
export function debitFor(balanceNanos: bigint, reservedTotalNanos: bigint, ownReservedNanos: bigint, costNanos: bigint): bigint {
  return min(costNanos, max0(balanceNanos - max0(reservedTotalNanos - ownReservedNanos)));
}

export interface CreditSettlement {
  userId: string;
  generationId: string;
  /** The request's own hold; for a leased request it is part of the holder's lease. */
  reservedNanos: bigint;
  costNanos: bigint;
  /** Set when the request was admitted against this process's credit lease (src/billing/credit-leases.ts). */
  leaseHolder?: string;
}

/**
 * Settles many requests inside the caller's transaction with one lock per user (taken in user order, so
 * concurrent batches cannot deadlock), one ledger insert and one account update per user. Precondition: the
 * generations are new in this transaction (the caller inserted them just before), so none was settled before.
 * A zero cost only releases its reservation and writes no ledger row. A leased request's cost is paid out of its
 * lease (the lease and the account's reserved total shrink by the debit; the rest of its hold stays in the lease
 * for the next requests).
 */
export async function settleCreditsBatch(trx: Transaction<Database>, items: readonly CreditSettlement[]): Promise<void> {
  if (items.length === 0) return;
  const rows = await lockCreditAccounts(trx, items.map((item) => item.userId));
  const accounts = new Map(rows.map((row) => [row.user_id, { balance: row.balance_nanos, reserved: row.reserved_nanos, used: 0n }]));
  const leases = await lockLeases(trx, items);
  const debits: { user_id: string; kind: 'debit'; amount_nanos: bigint; generation_id: string }[] = [];
  for (const item of items) {
    const account = accounts.get(item.userId);
    if (!account) continue;
    const lease = item.leaseHolder === undefined ? undefined : leases.get(leaseKey(item.leaseHolder, item.userId));
    let debit: bigint;
    if (item.leaseHolder !== undefined) {
      // A lease reclaimed meanwhile (its holder looked dead) no longer covers the cost: then only unreserved money is debited.
      const own = lease?.amount ?? 0n;
      debit = debitFor(account.balance, account.reserved, own, item.costNanos);
      const consumed = min(debit, own);
      account.reserved = max0(account.reserved - consumed);
      if (lease) lease.amount -= consumed;
    } else {
      debit = debitFor(account.balance, account.reserved, item.reservedNanos, item.costNanos);
      account.reserved = max0(account.reserved - item.reservedNanos);
    }
    account.balance -= debit;
    account.used += debit;
    if (item.costNanos > 0n) debits.push({ user_id: item.userId, kind: 'debit', amount_nanos: -debit, generation_id: item.generationId });
  }
  if (debits.length > 0) await trx.insertInto('credit_ledger').values(debits).execute();
  for (const [userId, account] of accounts) {
    await trx
      .updateTable('credit_accounts')
      .set((eb) => ({
        balance_nanos: account.balance,
        reserved_nanos: account.reserved,
        total_used_nanos: eb('total_used_nanos', '+', account.used),
        updated_at: sql<Date>`now()`,
      }))
      .where('user_id', '=', userId)
      .execute();
  }
  for (const lease of leases.values()) {
    if (lease.amount === lease.lockedAmount) continue;
    await trx
      .updateTable('credit_leases')
      .set({ amount_nanos: lease.amount })
      .where('holder', '=', lease.holder)
      .where('user_id', '=', lease.userId)
      .execute();
  }
}

interface LockedLease {
  holder: string;
  userId: string;
  lockedAmount: bigint;
  amount: bigint;
}

/** Locks the leases the batch pays from (after the accounts: the lock order of src/repositories/credit-leases.ts). */
async function lockLeases(trx: Transaction<Database>, items: readonly CreditSettlement[]): Promise<Map<string, LockedLease>> {
  const leased = items.filter((item) => item.leaseHolder !== undefined);
  if (leased.length === 0) return new Map();
  const holders = [...new Set(leased.map((item) => item.leaseHolder!))];
  const userIds = [...new Set(leased.map((item) => item.userId))];
  const rows = await trx
    .selectFrom('credit_leases')
    .select(['holder', 'user_id', 'amount_nanos'])
    .where('holder', 'in', holders)
    .where('user_id', 'in', userIds)
    .orderBy('user_id')
    .orderBy('holder')
    .forUpdate()
    .execute();
  return new Map(
    rows.map((row) => [
      leaseKey(row.holder, row.user_id),
      { holder: row.holder, userId: row.user_id, lockedAmount: row.amount_nanos, amount: row.amount_nanos },
    ]),
  );
}

function leaseKey(holder: string, userId: string): string {
  return `${holder}\u0000${userId}`;
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

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function max0(a: bigint): bigint {
  return a > 0n ? a : 0n;
}
