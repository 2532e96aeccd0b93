import type { DbOrTrx } from '../db/database.js';
import type { NewSubscription, SubscriptionRow } from '../db/tables/subscriptions.js';

export async function insertSubscription(db: DbOrTrx, row: NewSubscription): Promise<SubscriptionRow> {
  return db.insertInto('subscriptions').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The unrevoked subscription whose period contains `now` (the one ending last, if several overlap). */
export async function findActiveSubscription(
  db: DbOrTrx,
  userId: string,
  now: Date,
): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('period_start', '<=', now)
    .where('period_end', '>', now)
    .orderBy('period_end', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Revokes every unrevoked subscription of the user that has not ended yet; returns how many. */
export async function revokeSubscriptions(db: DbOrTrx, userId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('subscriptions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('period_end', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Locks (FOR UPDATE) every unrevoked subscription row of the user that has not ended at `now`, in id
 * order, and returns them. Pass admission takes this lock so concurrent requests of one user check and
 * reserve quota one at a time; two admissions whose clocks straddle a period boundary still meet on the
 * later period's row, which both lock.
 */
export async function lockLiveSubscriptions(db: DbOrTrx, userId: string, now: Date): Promise<SubscriptionRow[]> {
  return liveSubscriptions(db, userId, now).orderBy('id').forUpdate().execute();
}

/** Unrevoked subscription periods that have not ended at `now`, earliest first (the current one and any prepaid ones). */
export async function listLiveSubscriptions(db: DbOrTrx, userId: string, now: Date): Promise<SubscriptionRow[]> {
  return liveSubscriptions(db, userId, now).orderBy('period_start').execute();
}

/** Unrevoked periods of the user that have not ended at `now`. */
function liveSubscriptions(db: DbOrTrx, userId: string, now: Date) {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('period_end', '>', now);
}
