// What GET /pass/usage and `modelgate pass show` report: per window used, limit, remaining and reset time
// (the same sums admission checks, in-flight reservations included), plus the current subscription period.
import type { PassUsage, PassWindowUsage } from '../../generated/openapi-types.js';
import { nanosToUsd } from '../core/money.js';
import type { DbOrTrx } from '../db/database.js';
import type { SubscriptionRow } from '../db/tables/subscriptions.js';
import { listRollingUsage, sumPassWindows } from '../repositories/pass-usage.js';
import { listLiveSubscriptions } from '../repositories/subscriptions.js';
import type { PassAdmissionDeps } from './admit-pass.js';
import { activeSubscription } from './admit-pass.js';
import { STALE_RESERVATION_MS } from './plan.js';
import { toAgingUsage, windowStates } from './quota-decision.js';
import { monthEnd, weekEnd } from '../core/utc-calendar.js';
import { rollingResetAt, windowStarts, type PassWindow } from './windows.js';

export interface WindowReport {
  usedNanos: bigint;
  limitNanos: bigint;
  remainingNanos: bigint;
  resetsAt: Date;
}

export interface PassUsageReport {
  windows: Record<PassWindow, WindowReport>;
  subscription: SubscriptionRow;
}

/** The caller's usage report, or undefined without an active subscription at `deps.now()`. */
export async function passUsageReport(
  deps: Omit<PassAdmissionDeps, 'db'> & { db: DbOrTrx },
  userId: string,
): Promise<PassUsageReport | undefined> {
  const now = deps.now();
  const subscription = activeSubscription(await listLiveSubscriptions(deps.db, userId, now), now);
  if (!subscription) return undefined;
  return { windows: await windowReports(deps, userId, now), subscription };
}

/** What GET /pass/usage answers: the report of a subscriber, or for anyone else `active: false` and the windows. */
export async function passUsageOf(
  deps: Omit<PassAdmissionDeps, 'db'> & { db: DbOrTrx },
  userId: string,
): Promise<PassUsage> {
  const report = await passUsageReport(deps, userId);
  if (report) return toWirePassUsage(report);
  const windows = await windowReports(deps, userId, deps.now());
  return { active: false, ...toWireWindows(windows) };
}

/** Used, limit, remaining and reset time per window (in-flight reservations included), as admission sees them. */
async function windowReports(
  deps: Omit<PassAdmissionDeps, 'db'> & { db: DbOrTrx },
  userId: string,
  now: Date,
): Promise<Record<PassWindow, WindowReport>> {
  const starts = windowStarts(now);
  const reservationsAfter = new Date(now.getTime() - STALE_RESERVATION_MS);
  const sums = await sumPassWindows(deps.db, { userId, ...starts, reservationsAfter });
  const rolling = (
    await listRollingUsage(deps.db, { userId, fiveHourAfter: starts.fiveHourAfter, reservationsAfter })
  ).map(toAgingUsage);
  const resets: Record<PassWindow, Date> = {
    five_hour: rollingResetAt(rolling, now),
    weekly: weekEnd(now),
    monthly: monthEnd(now),
  };
  const windows = {} as Record<PassWindow, WindowReport>;
  for (const state of windowStates(sums, deps.passQuota)) {
    const remaining = state.limitNanos - state.usedNanos;
    windows[state.window] = {
      usedNanos: state.usedNanos,
      limitNanos: state.limitNanos,
      remainingNanos: remaining > 0n ? remaining : 0n,
      resetsAt: resets[state.window],
    };
  }
  return windows;
}

function toWireWindow(w: WindowReport): PassWindowUsage {
  return {
    used: nanosToUsd(w.usedNanos),
    limit: nanosToUsd(w.limitNanos),
    remaining: nanosToUsd(w.remainingNanos),
    resets_at: w.resetsAt.toISOString(),
  };
}

function toWireWindows(windows: Record<PassWindow, WindowReport>): Pick<PassUsage, PassWindow> {
  return {
    five_hour: toWireWindow(windows.five_hour),
    weekly: toWireWindow(windows.weekly),
    monthly: toWireWindow(windows.monthly),
  };
}

export function toWirePassUsage(report: PassUsageReport): PassUsage {
  return {
    active: true,
    ...toWireWindows(report.windows),
    subscription: {
      period_start: report.subscription.period_start.toISOString(),
      period_end: report.subscription.period_end.toISOString(),
    },
  };
}
