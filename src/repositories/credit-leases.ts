import { sql } from 'kysely';
import type { Expression, ExpressionBuilder, SqlBool, Transaction } from 'kysely';
import { maxBigInt, minBigInt } from '../core/bigint-min-max.js';
import type { Database, DbOrTrx } from '../db/database.js';
import { inTransaction } from '../db/in-transaction.js';
import { lockCreditAccounts } from './credits.js';

// A lease is part of its user's credit_accounts.reserved_nanos; every function here moves both together.
// Lock order everywhere (here and in the settle_generations function, migrations 0005 and 0006): credit_accounts rows
// (by user id), then credit_leases rows.

/** Must match nothing else: every gateway LISTENs here for lease recalls and their answers (src/billing/lease-recalls.ts). */
export const CREDIT_LEASE_CHANNEL = 'modelgate_credit_leases';

/** One holder's lease of one user, as recorded. */
export interface HeldLease {
  holder: string;
  amountNanos: bigint;
}

export type ExtendLeaseResult =
  | { ok: true; grantedNanos: bigint }
  /** `others`: the other holders' leases of this user (what a recall could bring back), read under the same lock. */
  | { ok: false; availableNanos: bigint; others: HeldLease[] };

/**
 * Adds at least `minNanos` and at most `wantNanos` of the user's unreserved balance to the holder's lease, but no more
 * than `1/shareDivisor` of that balance unless `minNanos` needs more (so one holder cannot take it all for later
 * requests). Fails, changing nothing, when less than `minNanos` is unreserved.
 */
export async function extendLease(
  db: DbOrTrx,
  input: { holder: string; userId: string; minNanos: bigint; wantNanos: bigint; shareDivisor?: bigint },
): Promise<ExtendLeaseResult> {
  const { holder, userId, minNanos } = input;
  if (minNanos <= 0n) throw new RangeError('minNanos must be positive');
  const shareDivisor = input.shareDivisor ?? 1n;
  if (shareDivisor < 1n) throw new RangeError('shareDivisor must be at least 1');
  return inTransaction(db, async (trx) => {
    const [account] = await lockCreditAccounts(trx, [userId]);
    const available = account === undefined ? 0n : max0(account.balance_nanos - account.reserved_nanos);
    if (available < minNanos) {
      return { ok: false, availableNanos: available, others: await listLeases(trx, userId, holder) };
    }
    const share = available / shareDivisor;
    const want = minBigInt(input.wantNanos, share);
    const granted = minBigInt(available, maxBigInt(want, minNanos));
    await trx
      .updateTable('credit_accounts')
      .set((eb) => ({ reserved_nanos: eb('reserved_nanos', '+', granted) }))
      .where('user_id', '=', userId)
      .execute();
    await trx
      .insertInto('credit_leases')
      .values({ holder, user_id: userId, amount_nanos: granted })
      .onConflict((oc) =>
        oc.columns(['holder', 'user_id']).doUpdateSet((eb) => ({
          amount_nanos: eb('credit_leases.amount_nanos', '+', eb.ref('excluded.amount_nanos')),
          renewed_at: sql<Date>`now()`,
        })),
      )
      .execute();
    return { ok: true, grantedNanos: granted };
  });
}

/** Gives up to `amountNanos` of the holder's lease back to the user's unreserved balance; returns what was given back. */
export async function shrinkLease(
  db: DbOrTrx,
  input: { holder: string; userId: string; amountNanos: bigint },
): Promise<bigint> {
  const { holder, userId, amountNanos } = input;
  if (amountNanos <= 0n) return 0n;
  return inTransaction(db, async (trx) => {
    await lockCreditAccounts(trx, [userId]);
    const lease = await trx
      .selectFrom('credit_leases')
      .select('amount_nanos')
      .where('holder', '=', holder)
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (lease === undefined) return 0n;
    const given = minBigInt(amountNanos, lease.amount_nanos);
    await trx
      .updateTable('credit_leases')
      .set((eb) => ({ amount_nanos: eb('amount_nanos', '-', given) }))
      .where('holder', '=', holder)
      .where('user_id', '=', userId)
      .execute();
    await unreserve(trx, userId, given);
    return given;
  });
}

/** The non-empty leases of one user, except `exceptHolder`'s (a snapshot: holders admit against them in memory). */
export async function listLeases(db: DbOrTrx, userId: string, exceptHolder?: string): Promise<HeldLease[]> {
  let query = db
    .selectFrom('credit_leases')
    .select(['holder', 'amount_nanos'])
    .where('user_id', '=', userId)
    .where('amount_nanos', '>', 0n);
  if (exceptHolder !== undefined) query = query.where('holder', '<>', exceptHolder);
  const rows = await query.orderBy('holder').execute();
  return rows.map((row) => ({ holder: row.holder, amountNanos: row.amount_nanos }));
}

/**
 * The user's unreserved balance and the non-empty leases of holders other than `exceptHolder`, read in one statement
 * (one snapshot: read apart, a lease given back between the two reads would be counted in neither).
 */
export async function recallableCredit(
  db: DbOrTrx,
  userId: string,
  exceptHolder?: string,
): Promise<{ availableNanos: bigint; leases: HeldLease[] }> {
  const rows = await db
    .selectFrom('credit_accounts as a')
    .leftJoin('credit_leases as l', (join) => {
      let on = join.onRef('l.user_id', '=', 'a.user_id').on('l.amount_nanos', '>', 0n);
      if (exceptHolder !== undefined) on = on.on('l.holder', '<>', exceptHolder);
      return on;
    })
    .select(['a.balance_nanos', 'a.reserved_nanos', 'l.holder', 'l.amount_nanos'])
    .where('a.user_id', '=', userId)
    .orderBy('l.holder')
    .execute();
  if (rows.length === 0) return { availableNanos: 0n, leases: [] };
  const leases: HeldLease[] = [];
  for (const row of rows)
    if (row.holder !== null && row.amount_nanos !== null)
      leases.push({ holder: row.holder, amountNanos: row.amount_nanos });
  return { availableNanos: max0(rows[0].balance_nanos - rows[0].reserved_nanos), leases };
}

/** Sends one message on the lease channel (delivered at commit when `db` is a transaction). */
export async function notifyLeaseChannel(db: DbOrTrx, payload: string): Promise<void> {
  await sql`select pg_notify(${CREDIT_LEASE_CHANNEL}, ${payload})`.execute(db);
}

/**
 * A holder's answer to a recall: gives up to `amountNanos` of its lease back and announces `payload` in the same
 * transaction, so whoever hears the answer finds the credit already returned.
 */
export async function answerLeaseRecall(
  db: DbOrTrx,
  input: { holder: string; userId: string; amountNanos: bigint; payload: string },
): Promise<bigint> {
  return inTransaction(db, async (trx) => {
    const given = input.amountNanos > 0n ? await shrinkLease(trx, input) : 0n;
    await notifyLeaseChannel(trx, input.payload);
    return given;
  });
}

/** Heartbeat of one process: returns the users whose leases it still holds (others were reclaimed). */
export async function renewLeases(db: DbOrTrx, holder: string): Promise<Set<string>> {
  const rows = await db
    .updateTable('credit_leases')
    .set({ renewed_at: sql<Date>`now()` })
    .where('holder', '=', holder)
    .returning('user_id')
    .execute();
  return new Set(rows.map((row) => row.user_id));
}

/** Ends every lease of one holder (graceful stop): the whole amount goes back to the unreserved balance. */
export async function dropHolderLeases(db: DbOrTrx, holder: string): Promise<number> {
  return dropLeases(db, (eb) => eb('holder', '=', holder));
}

/**
 * Ends the leases of processes that stopped renewing them (crashed) for longer than `ttlSeconds`, by the
 * database clock, so instances with skewed clocks agree. Returns how many leases were reclaimed.
 */
export async function reclaimExpiredLeases(db: DbOrTrx, ttlSeconds: number): Promise<number> {
  return dropLeases(db, (eb) => eb('renewed_at', '<', sql<Date>`now() - make_interval(secs => ${ttlSeconds})`));
}

type LeaseCondition = (eb: ExpressionBuilder<Database, 'credit_leases'>) => Expression<SqlBool>;

async function dropLeases(db: DbOrTrx, where: LeaseCondition): Promise<number> {
  // Unlocked look first: on the periodic path there is usually nothing to reclaim, and the account locks must be
  // taken before the lease rows' (the lock order).
  const candidates = await db.selectFrom('credit_leases').select('user_id').distinct().where(where).execute();
  if (candidates.length === 0) return 0;
  return inTransaction(db, async (trx) => {
    const userIds = candidates.map((row) => row.user_id);
    await lockCreditAccounts(trx, userIds);
    const dropped = await trx
      .deleteFrom('credit_leases')
      .where('user_id', 'in', userIds)
      .where(where)
      .returning(['user_id', 'amount_nanos'])
      .execute();
    const byUser = new Map<string, bigint>();
    for (const row of dropped) byUser.set(row.user_id, (byUser.get(row.user_id) ?? 0n) + row.amount_nanos);
    for (const userId of [...byUser.keys()].sort()) await unreserve(trx, userId, byUser.get(userId)!);
    return dropped.length;
  });
}

async function unreserve(trx: Transaction<Database>, userId: string, amountNanos: bigint): Promise<void> {
  if (amountNanos <= 0n) return;
  await trx
    .updateTable('credit_accounts')
    .set((eb) => ({ reserved_nanos: sql<bigint>`greatest(${eb.ref('reserved_nanos')} - ${amountNanos}, 0)` }))
    .where('user_id', '=', userId)
    .execute();
}

function max0(a: bigint): bigint {
  return a > 0n ? a : 0n;
}
