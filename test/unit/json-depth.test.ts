// The body's nesting bound: exact at the limit, iterative (no stack overflow at any depth), and every kind of
// container counts.
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/json-depth.js';

const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;

describe('nestsDeeperThan', () => {
  it('scalars and flat values have no depth to speak of', () => {
    for (const value of [null, 1, 'x', true, undefined]) expect(nestsDeeperThan(value, 0)).toBe(false);
    expect(nestsDeeperThan({}, 1)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
  });

  it('is exact at the bound', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('counts objects and arrays alike, on any branch', () => {
    const value = { a: 1, b: [{ c: [] }], d: { e: { f: {} } } };
    expect(nestsDeeperThan(value, 4)).toBe(false);
    expect(nestsDeeperThan(value, 3)).toBe(true);
  });

  it('returns on 200,000 levels without overflowing the stack', () => {
    expect(nestsDeeperThan(nested(200_000), MAX_JSON_DEPTH)).toBe(true);
  });
});
