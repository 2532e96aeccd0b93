// Calendar boundaries in UTC, as pure functions of an injected `now`: the day, the ISO week (from Monday) and the
// month a moment falls in, and month arithmetic. Key spend periods, the subscription windows and the daily usage
// totals all count in these.

const DAY_MS = 24 * 60 * 60 * 1000;

/** 00:00 UTC of `now`'s day. */
export function dayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Monday 00:00 UTC of the week containing `now` (ISO weeks: Monday is the first day). */
export function weekStart(now: Date): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const daysSinceMonday = (now.getUTCDay() + 6) % 7; // getUTCDay: Sunday 0 … Saturday 6
  return new Date(midnight - daysSinceMonday * DAY_MS);
}

/** Next Monday 00:00 UTC: where `now`'s week ends. */
export function weekEnd(now: Date): Date {
  return new Date(weekStart(now).getTime() + 7 * DAY_MS);
}

/** The 1st of `now`'s month, 00:00 UTC. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** The 1st of the following month, 00:00 UTC (Date.UTC rolls month 12 over into January of the next year). */
export function monthEnd(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/**
 * `date` plus `months` calendar months at the same UTC time of day, clamped to the last day of a shorter
 * month (Jan 31 + 1 → Feb 28 or 29). Subscription periods are computed from one anchor with this, so a
 * chain of months never drifts (Jan 31 → Feb 28 → Mar 31, not Mar 28).
 */
export function addMonthsUtc(date: Date, months: number): Date {
  if (!Number.isInteger(months)) throw new RangeError(`months must be an integer, got ${months}`);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  const timeOfDay = date.getTime() - Date.UTC(year, date.getUTCMonth(), date.getUTCDate());
  return new Date(Date.UTC(year, month, day) + timeOfDay);
}
