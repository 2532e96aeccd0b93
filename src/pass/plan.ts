// The flat subscription ("Modelgate Pass"): its price and the default sizes of its three quota windows.
//
// Quotas are USD of usage valued at the published reference rates (catalog `reference` blocks), the
// same rates the public API lists charge, so "N USD of quota" reads as "N USD of API usage".
// The spec promises 2–5× the usage of the standard API rate for 9.99 USD a month. Defaults:
//   monthly  40 USD  ≈ 4 × 9.99: the middle of the 2–5× promise, with headroom both ways.
//   weekly   16 USD  = 40% of monthly: one week may use a large share, but not the whole month
//                    (4.35 weeks × 16 = 70 USD > 40, so steady use is bounded by the month, bursts by the week).
//   5 hours   2 USD  = 1/8 of weekly: about eight full coding sessions a week; a single session cannot
//                    drain the week.
// Operators change them with MODELGATE_PASS_QUOTA_5H / _WEEKLY / _MONTHLY (USD, decimals allowed).
import { NANOS_PER_USD } from '../core/money.js';

export const PASS_PLAN = 'pass' as const;

/** 9.99 USD per month, flat. */
export const PASS_PRICE_NANOS = 9_990_000_000n;

/** The three quota windows' sizes an operator configured (MODELGATE_PASS_QUOTA_*), in nano-dollars. */
export interface PassQuotaConfig {
  fiveHourNanos: bigint;
  weeklyNanos: bigint;
  monthlyNanos: bigint;
}

export const DEFAULT_PASS_QUOTA_USD = { fiveHour: '2', weekly: '16', monthly: '40' } as const;

/** Largest accepted window, USD: a guard against a unit mistake (nanos pasted as USD). */
export const MAX_PASS_QUOTA_NANOS = 1_000_000n * NANOS_PER_USD;

/**
 * An unsettled reservation older than this stops counting against the windows: the process serving its
 * request most likely died before settling. Generous for any single generation; one that does settle
 * later still records its real cost.
 */
export const STALE_RESERVATION_MS = 60 * 60 * 1000;
