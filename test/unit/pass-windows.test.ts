// Window arithmetic of the subscription quotas with an injected clock: rolling edges, week and month
// boundaries (Sunday→Monday, month ends, year end), month addition, and when the rolling window frees up.
import { describe, expect, it } from 'vitest';
import { addMonthsUtc, monthEnd, monthStart, weekEnd, weekStart } from '../../src/core/utc-calendar.js';
import {
  rollingFreeAt,
  rollingResetAt,
  rollingWindowStart,
  secondsUntil,
  windowStarts,
  type AgingUsage,
} from '../../src/pass/windows.js';

const at = (iso: string) => new Date(iso);
const HOUR = 3_600_000;

describe('calendar week (Monday 00:00 UTC)', () => {
  it.each([
    ['a Wednesday', '2025-11-19T15:30:00Z', '2025-11-17T00:00:00.000Z'],
    ['Monday at midnight exactly (the start itself)', '2025-11-17T00:00:00Z', '2025-11-17T00:00:00.000Z'],
    ['Sunday one millisecond before midnight', '2025-11-23T23:59:59.999Z', '2025-11-17T00:00:00.000Z'],
    ['a week that starts in the previous year', '2026-01-01T12:00:00Z', '2025-12-29T00:00:00.000Z'],
    ['a Sunday that ends a month', '2025-08-31T22:00:00Z', '2025-08-25T00:00:00.000Z'],
  ])('starts on the Monday before %s', (_label, now, monday) => {
    expect(weekStart(at(now)).toISOString()).toBe(monday);
    expect(weekEnd(at(now)).getTime() - weekStart(at(now)).getTime()).toBe(7 * 24 * HOUR);
  });

  it('crosses from Sunday into Monday as a new week', () => {
    const sunday = at('2025-11-23T23:59:59.999Z');
    const monday = at('2025-11-24T00:00:00.000Z');
    expect(weekEnd(sunday).toISOString()).toBe('2025-11-24T00:00:00.000Z');
    expect(weekStart(monday).toISOString()).toBe('2025-11-24T00:00:00.000Z');
    expect(weekStart(monday).getTime()).toBe(weekEnd(sunday).getTime());
  });

  it('ignores the local time zone of the process (UTC days only)', () => {
    // 23:30 UTC on a Sunday is already Monday in UTC+1: still the old week.
    expect(weekStart(at('2025-11-23T23:30:00Z')).toISOString()).toBe('2025-11-17T00:00:00.000Z');
  });
});

describe('calendar month (UTC)', () => {
  it.each([
    ['mid-month', '2025-11-21T10:00:00Z', '2025-11-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z'],
    ['the first instant of a month', '2025-12-01T00:00:00Z', '2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    [
      "New Year's Eve, last millisecond",
      '2025-12-31T23:59:59.999Z',
      '2025-12-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    ],
    ['February of a leap year', '2028-02-29T12:00:00Z', '2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
  ])('%s', (_label, now, start, end) => {
    expect(monthStart(at(now)).toISOString()).toBe(start);
    expect(monthEnd(at(now)).toISOString()).toBe(end);
  });
});

describe('rolling 5-hour window', () => {
  it('starts exactly 5 hours back (exclusive) and carries the three starts together', () => {
    const now = at('2026-01-01T02:00:00Z');
    expect(rollingWindowStart(now).toISOString()).toBe('2025-12-31T21:00:00.000Z');
    // Just after midnight on Jan 1 the rolling window reaches into last year, before both calendar starts.
    expect(windowStarts(now)).toEqual({
      fiveHourAfter: at('2025-12-31T21:00:00Z'),
      weekFrom: at('2025-12-29T00:00:00Z'),
      monthFrom: at('2026-01-01T00:00:00Z'),
    });
  });

  const now = at('2025-11-21T12:00:00Z');
  const item = (countsUntil: string, nanos: bigint): AgingUsage => ({ countsUntil: at(countsUntil), nanos });

  it('admits at once when the request fits', () => {
    expect(rollingFreeAt([item('2025-11-21T14:00:00Z', 40n)], 100n, 30n, now)).toEqual(now);
    // Filling the window exactly to its limit is allowed; one nano more is not.
    expect(rollingFreeAt([item('2025-11-21T14:00:00Z', 40n)], 100n, 60n, now)).toEqual(now);
    expect(rollingFreeAt([item('2025-11-21T14:00:00Z', 40n)], 100n, 61n, now)).toEqual(at('2025-11-21T14:00:00Z'));
  });

  it('waits until just enough of the oldest usage has aged out, not until the window is empty', () => {
    const items = [
      item('2025-11-21T16:00:00Z', 30n),
      item('2025-11-21T13:00:00Z', 50n),
      item('2025-11-21T15:00:00Z', 20n),
    ];
    // used 100 of 100; 45 more needs 50 gone: the 13:00 row.
    expect(rollingFreeAt(items, 100n, 45n, now)?.toISOString()).toBe('2025-11-21T13:00:00.000Z');
    // 60 more needs 60 gone: 13:00 (50) is not enough, 15:00 (20) makes 70.
    expect(rollingFreeAt(items, 100n, 60n, now)?.toISOString()).toBe('2025-11-21T15:00:00.000Z');
    // The whole limit: every row must age out.
    expect(rollingFreeAt(items, 100n, 100n, now)?.toISOString()).toBe('2025-11-21T16:00:00.000Z');
  });

  it('says never when the request alone is larger than the window', () => {
    expect(rollingFreeAt([], 100n, 101n, now)).toBeUndefined();
  });

  it('resets when the oldest counting row ages out, or 5 hours from now when empty', () => {
    expect(rollingResetAt([], now).toISOString()).toBe('2025-11-21T17:00:00.000Z');
    expect(
      rollingResetAt([item('2025-11-21T16:00:00Z', 1n), item('2025-11-21T13:30:00Z', 1n)], now).toISOString(),
    ).toBe('2025-11-21T13:30:00.000Z');
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    expect(secondsUntil(at('2025-11-21T12:00:00.001Z'), now)).toBe(1);
    expect(secondsUntil(at('2025-11-21T12:00:10.000Z'), now)).toBe(10);
    expect(secondsUntil(at('2025-11-21T12:00:10.200Z'), now)).toBe(11);
    expect(secondsUntil(now, now)).toBe(1);
  });
});

describe('addMonthsUtc (subscription periods)', () => {
  it.each([
    ['2025-11-21T08:00:00.000Z', 1, '2025-12-21T08:00:00.000Z'],
    ['2025-12-15T08:00:00.000Z', 1, '2026-01-15T08:00:00.000Z'],
    ['2025-01-31T10:00:00.000Z', 1, '2025-02-28T10:00:00.000Z'],
    ['2028-01-31T10:00:00.000Z', 1, '2028-02-29T10:00:00.000Z'],
    ['2025-01-31T10:00:00.000Z', 2, '2025-03-31T10:00:00.000Z'],
    ['2025-03-31T23:59:59.999Z', 11, '2026-02-28T23:59:59.999Z'],
    ['2025-11-21T08:00:00.000Z', 0, '2025-11-21T08:00:00.000Z'],
  ])('%s + %i months = %s', (from, months, expected) => {
    expect(addMonthsUtc(at(from), months).toISOString()).toBe(expected);
  });

  it('does not drift along a chain computed from one anchor', () => {
    const anchor = at('2025-01-31T00:00:00Z');
    const chain = [0, 1, 2, 3].map((k) => addMonthsUtc(anchor, k).toISOString().slice(0, 10));
    expect(chain).toEqual(['2025-01-31', '2025-02-28', '2025-03-31', '2025-04-30']);
  });
});
