// Reset periods of per-key spend limits: UTC day, ISO week (from Monday) or calendar month; a key whose limit
// never resets has one period starting at the epoch.
import type { KeyLimitReset } from '../db/tables/api-keys.js';
import { dayStart, monthEnd, monthStart, weekEnd, weekStart } from '../core/utc-calendar.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const NEVER_RESETS = new Date(0);

/** Start of the period `now` falls in. */
export function periodStart(reset: KeyLimitReset | null, now: Date): Date {
  switch (reset) {
    case 'daily':
      return dayStart(now);
    case 'weekly':
      return weekStart(now);
    case 'monthly':
      return monthStart(now);
    default:
      return NEVER_RESETS;
  }
}

/** When the limit starts over next; null when it never does. */
export function periodEnd(reset: KeyLimitReset | null, now: Date): Date | null {
  switch (reset) {
    case 'daily':
      return new Date(dayStart(now).getTime() + DAY_MS);
    case 'weekly':
      return weekEnd(now);
    case 'monthly':
      return monthEnd(now);
    default:
      return null;
  }
}
