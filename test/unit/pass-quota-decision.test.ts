// Which window blocks a pass request, what the refusal says, and how it maps to 429 / 400.
import { describe, expect, it } from 'vitest';
import { blockingWindows, quotaRefusal, toAgingUsage, windowStates } from '../../src/pass/quota-decision.js';
import { quotaError } from '../../src/pass/quota-errors.js';
import { STALE_RESERVATION_MS } from '../../src/pass/plan.js';

const now = new Date('2025-11-21T12:00:00Z'); // a Friday
const limits = { fiveHourNanos: 100n, weeklyNanos: 300n, monthlyNanos: 1000n };

describe('windowStates / blockingWindows', () => {
  it('pairs each window with its limit and blocks only the windows that cannot take the request', () => {
    const states = windowStates({ fiveHour: 90n, weekly: 250n, monthly: 400n }, limits);
    expect(states.map((s) => s.window)).toEqual(['five_hour', 'weekly', 'monthly']);
    expect(blockingWindows(states, 10n)).toEqual([]); // 90 + 10 = 100 fills the window exactly
    expect(blockingWindows(states, 11n).map((s) => s.window)).toEqual(['five_hour']);
    expect(blockingWindows(states, 51n).map((s) => s.window)).toEqual(['five_hour', 'weekly']);
  });
});

describe('quotaRefusal', () => {
  const rolling = [{ countsUntil: new Date('2025-11-21T13:00:00Z'), nanos: 90n }];

  it('reports the rolling window with the time enough of it ages out', () => {
    const states = windowStates({ fiveHour: 90n, weekly: 90n, monthly: 90n }, limits);
    const refusal = quotaRefusal(blockingWindows(states, 20n), 20n, now, rolling);
    expect(refusal).toMatchObject({ window: 'five_hour', usedNanos: 90n, limitNanos: 100n, requiredNanos: 20n });
    expect(refusal.retryAt?.toISOString()).toBe('2025-11-21T13:00:00.000Z');
  });

  it('reports the window that frees last when several block (the request needs room in all)', () => {
    const states = windowStates({ fiveHour: 90n, weekly: 290n, monthly: 290n }, limits);
    const refusal = quotaRefusal(blockingWindows(states, 20n), 20n, now, rolling);
    expect(refusal.window).toBe('weekly');
    expect(refusal.retryAt?.toISOString()).toBe('2025-11-24T00:00:00.000Z');
    const monthly = quotaRefusal(
      blockingWindows(windowStates({ fiveHour: 0n, weekly: 0n, monthly: 995n }, limits), 20n),
      20n,
      now,
      [],
    );
    expect(monthly.window).toBe('monthly');
    expect(monthly.retryAt?.toISOString()).toBe('2025-12-01T00:00:00.000Z');
  });

  it('has no retry time when the request exceeds a whole window', () => {
    const states = windowStates({ fiveHour: 0n, weekly: 0n, monthly: 0n }, limits);
    const refusal = quotaRefusal(blockingWindows(states, 150n), 150n, now, []);
    expect(refusal.window).toBe('five_hour');
    expect(refusal.retryAt).toBeUndefined();
  });
});

describe('toAgingUsage', () => {
  it('lets settled usage count for 5 hours and a reservation only until it turns stale', () => {
    const created = new Date('2025-11-21T10:00:00Z');
    expect(
      toAgingUsage({ created_at: created, reference_cost_nanos: 5n, status: 'settled' }).countsUntil.toISOString(),
    ).toBe('2025-11-21T15:00:00.000Z');
    expect(
      toAgingUsage({ created_at: created, reference_cost_nanos: 5n, status: 'reserved' }).countsUntil.getTime(),
    ).toBe(created.getTime() + STALE_RESERVATION_MS);
  });
});

describe('quotaError', () => {
  it('answers 429 with Retry-After, the reset time and the window in metadata', () => {
    const err = quotaError(
      {
        window: 'five_hour',
        usedNanos: 1_500_000n,
        limitNanos: 2_000_000n,
        requiredNanos: 600_000n,
        retryAt: new Date('2025-11-21T16:58:00Z'),
      },
      now,
    );
    expect(err.status).toBe(429);
    expect(err.headers).toEqual({
      'retry-after': String(4 * 3600 + 58 * 60),
      'x-ratelimit-reset': String(Date.parse('2025-11-21T16:58:00Z')),
    });
    expect(err.metadata).toMatchObject({
      reason: 'pass_quota_exceeded',
      window: 'five_hour',
      used: 0.0015,
      limit: 0.002,
      required: 0.0006,
    });
    expect(err.message).toContain('5-hour rolling window');
  });

  it('answers 400 when waiting can never help', () => {
    const err = quotaError(
      { window: 'weekly', usedNanos: 0n, limitNanos: 16_000_000_000n, requiredNanos: 17_000_000_000n },
      now,
    );
    expect(err.status).toBe(400);
    expect(err.metadata).toMatchObject({
      reason: 'request_exceeds_pass_window',
      window: 'weekly',
      limit: 16,
      required: 17,
    });
    expect(err.message).toContain('max_tokens');
  });
});
