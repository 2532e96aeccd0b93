// Whether a request's reserved amount fits into all three windows, and if not, which window blocks it
// and until when. Pure: the caller supplies the sums, the rolling window's rows and the clock.
import type { PassQuotaConfig } from './plan.js';
import type { CountedUsage, WindowSums } from '../repositories/pass-usage.js';
import { STALE_RESERVATION_MS } from './plan.js';
import { monthEnd, weekEnd } from '../core/utc-calendar.js';
import { FIVE_HOURS_MS, PASS_WINDOWS, rollingFreeAt, type AgingUsage, type PassWindow } from './windows.js';

export interface WindowState {
  window: PassWindow;
  usedNanos: bigint;
  limitNanos: bigint;
}

export function windowStates(sums: WindowSums, limits: PassQuotaConfig): WindowState[] {
  const used: Record<PassWindow, bigint> = { five_hour: sums.fiveHour, weekly: sums.weekly, monthly: sums.monthly };
  const limit: Record<PassWindow, bigint> = {
    five_hour: limits.fiveHourNanos,
    weekly: limits.weeklyNanos,
    monthly: limits.monthlyNanos,
  };
  return PASS_WINDOWS.map((window) => ({ window, usedNanos: used[window], limitNanos: limit[window] }));
}

/** Windows that cannot take `requiredNanos` more now (a window may be filled exactly to its limit). */
export function blockingWindows(states: readonly WindowState[], requiredNanos: bigint): WindowState[] {
  return states.filter((s) => s.usedNanos + requiredNanos > s.limitNanos);
}

/** A usage row of the rolling window with the instant it stops counting: 5 h after it was created, or
 *  earlier for a reservation that turns stale first. */
export function toAgingUsage(row: CountedUsage): AgingUsage {
  const created = row.created_at.getTime();
  const until =
    row.status === 'reserved'
      ? Math.min(created + FIVE_HOURS_MS, created + STALE_RESERVATION_MS)
      : created + FIVE_HOURS_MS;
  return { countsUntil: new Date(until), nanos: row.reference_cost_nanos };
}

export interface QuotaRefusal extends WindowState {
  requiredNanos: bigint;
  /** When the request would fit again; undefined when it exceeds this window's whole limit (waiting never helps). */
  retryAt?: Date;
}

/**
 * The refusal to report for blocked windows: a window the request can never fit first; otherwise the
 * window that frees enough LAST, since the request needs every window to have room. The rolling window
 * frees as its oldest usage ages out; the calendar windows at their reset.
 */
export function quotaRefusal(
  blocking: readonly WindowState[],
  requiredNanos: bigint,
  now: Date,
  rolling: readonly AgingUsage[],
): QuotaRefusal {
  if (blocking.length === 0) throw new RangeError('quotaRefusal needs at least one blocking window');
  const never = blocking.find((s) => requiredNanos > s.limitNanos);
  if (never) return { ...never, requiredNanos };
  let worst: QuotaRefusal | undefined;
  for (const state of blocking) {
    const retryAt =
      state.window === 'five_hour'
        ? rollingFreeAt(rolling, state.limitNanos, requiredNanos, now)
        : state.window === 'weekly'
          ? weekEnd(now)
          : monthEnd(now);
    if (!worst || (retryAt && worst.retryAt && retryAt.getTime() > worst.retryAt.getTime())) {
      worst = { ...state, requiredNanos, retryAt };
    }
  }
  return worst!;
}
