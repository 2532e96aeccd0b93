// The flat subscription as the operator manages it (CLI `pass`, API /admin/users/{id}/pass): periods of one month
// at 9.99 USD each, granted in advance, revoked at once, shown with their quota usage.
import { CONSOLE_ACTOR, recordAudit, type AuditActor } from './audit-log.js';
import { newId } from '../auth/secrets.js';
import type { Db } from '../db/database.js';
import type { SubscriptionRow } from '../db/tables/subscriptions.js';
import type { PassQuotaConfig } from '../pass/plan.js';
import { PASS_PLAN, PASS_PRICE_NANOS } from '../pass/plan.js';
import { passUsageReport, toWirePassUsage } from '../pass/usage-report.js';
import { addMonthsUtc } from '../core/utc-calendar.js';
import { insertSubscription, listLiveSubscriptions, revokeSubscriptions } from '../repositories/subscriptions.js';

export const MAX_PASS_MONTHS = 120;

export function wirePeriod(row: SubscriptionRow) {
  return { id: row.id, period_start: row.period_start.toISOString(), period_end: row.period_end.toISOString() };
}

/**
 * Adds `months` monthly periods, chained after the user's last live period (or starting now), each
 * computed from the same anchor so month lengths never drift.
 */
export async function grantPass(
  db: Db,
  userId: string,
  months: number,
  now: Date,
  /** Who grants it (the audit log); the console when not said. */
  by: AuditActor = CONSOLE_ACTOR,
): Promise<SubscriptionRow[]> {
  return db.transaction().execute(async (trx) => {
    const live = await listLiveSubscriptions(trx, userId, now);
    // biome-ignore lint/complexity/useMathMinMax: period ends are Dates; Math.max would turn them into numbers.
    const anchor = live.reduce((latest, row) => (row.period_end > latest ? row.period_end : latest), now);
    const rows: SubscriptionRow[] = [];
    for (let k = 0; k < months; k++) {
      rows.push(
        await insertSubscription(trx, {
          id: newId('sub_'),
          user_id: userId,
          plan: PASS_PLAN,
          price_nanos: PASS_PRICE_NANOS,
          period_start: addMonthsUtc(anchor, k),
          period_end: addMonthsUtc(anchor, k + 1),
        }),
      );
    }
    await recordAudit(trx, {
      actor: by,
      organizationId: userId,
      action: 'pass.granted',
      target: { type: 'pass', id: userId },
      after: { months, periods: rows.map(wirePeriod) },
    });
    return rows;
  });
}

/** Ends the current and prepaid periods; returns how many. */
export function revokePass(
  db: Db,
  { userId, now, by }: { userId: string; now: Date; by: AuditActor },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const revoked = await revokeSubscriptions(trx, userId, now);
    await recordAudit(trx, {
      actor: by,
      organizationId: userId,
      action: 'pass.revoked',
      target: { type: 'pass', id: userId },
      after: { revoked_periods: revoked },
    });
    return revoked;
  });
}

/** Whether the pass is active, its live periods and its quota windows (the shape `pass show` prints). */
export async function showPass(db: Db, passQuota: PassQuotaConfig, userId: string, now: Date) {
  const report = await passUsageReport({ db, now: () => now, passQuota }, userId);
  return {
    active: report !== undefined,
    periods: (await listLiveSubscriptions(db, userId, now)).map(wirePeriod),
    usage: report ? toWirePassUsage(report) : null,
  };
}
