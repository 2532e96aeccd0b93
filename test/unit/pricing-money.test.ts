// USD ↔ nano-dollar conversions: exact for decimals, one rounding rule, no float drift.
import { describe, expect, it } from 'vitest';
import { formatScaledDecimal, nanosToUsd, usdToNanos } from '../../src/core/money.js';

describe('usdToNanos', () => {
  it.each<[number | string, bigint]>([
    [0.075, 75_000_000n],
    ['0.075', 75_000_000n],
    [1, 1_000_000_000n],
    [0, 0n],
    ['1e-9', 1n],
    ['2.5E3', 2_500_000_000_000n],
    ['.5', 500_000_000n],
    ['  3.75 ', 3_750_000_000n],
    [0.1 + 0.2, 300_000_000n], // 0.30000000000000004 rounds to the nearest nano
    [0.0375, 37_500_000n],
    ['12345678901234.123456789', 12_345_678_901_234_123_456_789n],
    [-1.25, -1_250_000_000n],
  ])('%j → %s nanos', (usd, nanos) => {
    expect(usdToNanos(usd)).toBe(nanos);
  });

  it('rounds to the nearest nano, halves away from zero', () => {
    expect(usdToNanos('0.0000000005')).toBe(1n);
    expect(usdToNanos('0.00000000049')).toBe(0n);
    expect(usdToNanos('0.0000000015')).toBe(2n);
    expect(usdToNanos('-0.0000000005')).toBe(-1n);
  });

  it.each([
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [Number.NEGATIVE_INFINITY],
    [''],
    ['abc'],
    ['1,5'],
    ['0x10'],
    ['1e99999'],
  ])('rejects %j', (bad) => {
    expect(() => usdToNanos(bad)).toThrow(RangeError);
  });
});

describe('nanosToUsd', () => {
  it('converts through the exact decimal', () => {
    expect(nanosToUsd(1_500_000_000n)).toBe(1.5);
    expect(nanosToUsd(1n)).toBe(1e-9);
    expect(nanosToUsd(-2_000_000_001n)).toBe(-2.000000001);
    expect(nanosToUsd(0n)).toBe(0);
    // biome-ignore lint/correctness/noPrecisionLoss: the exact decimal is the point: the answer is the double nearest to it.
    expect(nanosToUsd(123_456_789_012_345_678n)).toBe(123456789.012345678);
  });
});

describe('formatScaledDecimal', () => {
  it('writes plain decimals without exponent or trailing zeros', () => {
    expect(formatScaledDecimal(2_500_000_000n, 15)).toBe('0.0000025');
    expect(formatScaledDecimal(1_000_000_000_000_000n, 15)).toBe('1');
    expect(formatScaledDecimal(1n, 15)).toBe('0.000000000000001');
    expect(formatScaledDecimal(0n, 15)).toBe('0');
    expect(formatScaledDecimal(-5n, 1)).toBe('-0.5');
    expect(formatScaledDecimal(120n, 0)).toBe('120');
  });
});
