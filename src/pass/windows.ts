// Window arithmetic of the subscription quotas, as pure functions of an injected `now` (all UTC).
//
// Membership conventions (one for each kind, used by the SQL sums and by these functions alike):
//   five_hour  TRUE rolling window (now − 5 h, now]: a usage row created at t counts while now < t + 5 h,
//              so it ages out exactly at t + 5 h.
//   weekly     calendar week [Monday 00:00, next Monday 00:00).
//   monthly    calendar month [1st 00:00, 1st of the next month 00:00).
import { monthStart, weekStart } from '../core/utc-calendar.js';

export type PassWindow = 'five_hour' | 'weekly' | 'monthly';

/** Checked in this order; a blocked request names the window that keeps it blocked longest. */
export const PASS_WINDOWS: readonly PassWindow[] = ['five_hour', 'weekly', 'monthly'];

export const FIVE_HOURS_MS = 5 * 60 * 60 * 1000;

/** Start (exclusive) of the rolling window: rows created strictly after it count. */
export function rollingWindowStart(now: Date): Date {
  return new Date(now.getTime() - FIVE_HOURS_MS);
}

/** Where each window starts for `now`; the rolling start is exclusive, the calendar starts inclusive. */
export interface WindowStarts {
  fiveHourAfter: Date;
  weekFrom: Date;
  monthFrom: Date;
}

export function windowStarts(now: Date): WindowStarts {
  return { fiveHourAfter: rollingWindowStart(now), weekFrom: weekStart(now), monthFrom: monthStart(now) };
}

/** One usage row as the rolling window sees it: its amount, and the instant it stops counting. */
export interface AgingUsage {
  countsUntil: Date;
  nanos: bigint;
}

/**
 * Earliest instant ≥ now at which `required` more fits into the rolling window, given the usage that
 * counts now (`items`, whose sum is the window's usage) and the window's `limit`. New usage is not
 * foreseen. Undefined when `required` alone exceeds the limit (waiting never helps).
 */
export function rollingFreeAt(
  items: readonly AgingUsage[],
  limit: bigint,
  required: bigint,
  now: Date,
): Date | undefined {
  if (required > limit) return undefined;
  let used = items.reduce((sum, item) => sum + item.nanos, 0n);
  if (used + required <= limit) return now;
  const byAge = [...items].sort((a, b) => a.countsUntil.getTime() - b.countsUntil.getTime());
  for (const item of byAge) {
    used -= item.nanos;
    if (used + required <= limit) return item.countsUntil.getTime() > now.getTime() ? item.countsUntil : now;
  }
  return now; // unreachable: once every item aged out, used is 0 and required ≤ limit
}

/**
 * When usage in the rolling window next drops: the moment the oldest counting row ages out, or
 * now + 5 h when the window is empty (what GET /pass/usage shows as `resets_at`).
 */
export function rollingResetAt(items: readonly AgingUsage[], now: Date): Date {
  let earliest = now.getTime() + FIVE_HOURS_MS;
  for (const item of items) earliest = Math.min(earliest, item.countsUntil.getTime());
  return new Date(Math.max(earliest, now.getTime()));
}

/** Whole seconds from `now` until `at`, at least 1 (a Retry-After of 0 invites a tight retry loop). */
export function secondsUntil(at: Date, now: Date): number {
  return Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
}
