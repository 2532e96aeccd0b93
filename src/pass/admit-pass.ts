// Step 4 for pass/ models: in ONE transaction, lock the user's live subscription rows, sum the three
// windows (settled usage + live reservations), check that the request's upper-bound reference cost fits
// every window, and insert a reservation row. The lock makes admissions of one user take turns, so
// concurrent requests on any number of instances can never together overrun a window.
import type { PassQuotaConfig } from './plan.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/in-transaction.js';
import type { SubscriptionRow } from '../db/tables/subscriptions.js';
import { listRollingUsage, reservePassUsage, sumPassWindows } from '../repositories/pass-usage.js';
import { lockLiveSubscriptions } from '../repositories/subscriptions.js';
import { STALE_RESERVATION_MS } from './plan.js';
import { blockingWindows, quotaRefusal, toAgingUsage, windowStates } from './quota-decision.js';
import { noSubscriptionError, quotaError } from './quota-errors.js';
import { windowStarts } from './windows.js';

export interface PassAdmissionDeps {
  db: Db;
  now: () => Date;
  passQuota: PassQuotaConfig;
}

export interface PassReservation {
  usageId: bigint;
  subscription: SubscriptionRow;
}

/** The subscription period containing `now` among the live rows (the one ending last if several overlap). */
export function activeSubscription(rows: readonly SubscriptionRow[], now: Date): SubscriptionRow | undefined {
  return rows
    .filter((r) => r.period_start.getTime() <= now.getTime() && r.period_end.getTime() > now.getTime())
    .sort((a, b) => b.period_end.getTime() - a.period_end.getTime())[0];
}

/** Reserves `amountNanos` of quota for one request, or throws the 403 / 429 / 400 GatewayError. */
export async function admitPass(
  deps: PassAdmissionDeps,
  input: { userId: string; modelId: string; amountNanos: bigint },
): Promise<PassReservation> {
  const now = deps.now();
  return inTransaction(deps.db, async (trx) => {
    const subscription = activeSubscription(await lockLiveSubscriptions(trx, input.userId, now), now);
    if (!subscription) throw noSubscriptionError(input.modelId);
    const starts = windowStarts(now);
    const reservationsAfter = new Date(now.getTime() - STALE_RESERVATION_MS);
    const sums = await sumPassWindows(trx, { userId: input.userId, ...starts, reservationsAfter });
    const blocking = blockingWindows(windowStates(sums, deps.passQuota), input.amountNanos);
    if (blocking.length > 0) {
      const rolling = blocking.some((s) => s.window === 'five_hour')
        ? (
            await listRollingUsage(trx, {
              userId: input.userId,
              fiveHourAfter: starts.fiveHourAfter,
              reservationsAfter,
            })
          ).map(toAgingUsage)
        : [];
      throw quotaError(quotaRefusal(blocking, input.amountNanos, now, rolling), now);
    }
    const usageId = await reservePassUsage(trx, { userId: input.userId, amountNanos: input.amountNanos, at: now });
    return { usageId, subscription };
  });
}
