// The pooled random source behind generation ids: each byte handed out once, refilled whole at the boundary, and
// ids keep their format.
import { describe, expect, it } from 'vitest';
import { RandomBytePool } from '../../src/pipeline/random-byte-pool.js';
import { newGenerationId } from '../../src/pipeline/generation-meter.js';

/** A fill that writes a known, changing byte sequence and counts its calls. */
function countingFill() {
  let next = 0;
  const fill = (buffer: Buffer) => {
    fill.calls++;
    for (let i = 0; i < buffer.length; i++) buffer[i] = next++ & 0xff;
  };
  fill.calls = 0;
  return fill;
}

const decode = (text: string) => [...Buffer.from(text, 'base64url')];

describe('RandomBytePool', () => {
  it('hands out consecutive, never repeated slices of one fill', () => {
    const fill = countingFill();
    const pool = new RandomBytePool(32, fill);
    expect(decode(pool.base64url(10))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(decode(pool.base64url(10))).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(decode(pool.base64url(10))).toEqual([20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
    expect(fill.calls).toBe(1);
  });

  it('refills the whole pool when the rest cannot serve a request, dropping the tail', () => {
    const fill = countingFill();
    const pool = new RandomBytePool(32, fill);
    for (let i = 0; i < 3; i++) pool.base64url(10);
    // Two bytes (30, 31) are left: not enough for ten, so the next ten come from a fresh fill (32..41).
    expect(decode(pool.base64url(10))).toEqual([32, 33, 34, 35, 36, 37, 38, 39, 40, 41]);
    expect(fill.calls).toBe(2);
  });

  it('uses the pool to its last byte when the sizes line up', () => {
    const fill = countingFill();
    const pool = new RandomBytePool(20, fill);
    pool.base64url(10);
    expect(decode(pool.base64url(10))).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(fill.calls).toBe(1);
    expect(decode(pool.base64url(10))).toEqual([20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
    expect(fill.calls).toBe(2);
  });

  it('refuses a request larger than the pool or not a positive whole number', () => {
    const pool = new RandomBytePool(16, countingFill());
    expect(() => pool.base64url(17)).toThrow(RangeError);
    expect(() => pool.base64url(0)).toThrow(RangeError);
    expect(() => pool.base64url(1.5)).toThrow(RangeError);
    expect(decode(pool.base64url(16))).toHaveLength(16);
  });

  it('draws real random bytes by default, distinct across many refills', () => {
    const pool = new RandomBytePool(64);
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) seen.add(pool.base64url(10));
    expect(seen.size).toBe(2_000);
  });
});

describe('newGenerationId', () => {
  it('keeps the format gen-<ms>-<base64url of 10 bytes> and stays unique across pool refills (409 ids per 4096-byte fill)', () => {
    const before = Date.now();
    const ids = Array.from({ length: 1_000 }, () => newGenerationId());
    const after = Date.now();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      const match = /^gen-(\d+)-([A-Za-z0-9_-]{14})$/.exec(id);
      expect(match, id).not.toBeNull();
      expect(Number(match![1])).toBeGreaterThanOrEqual(before);
      expect(Number(match![1])).toBeLessThanOrEqual(after);
      expect(Buffer.from(match![2], 'base64url')).toHaveLength(10);
    }
  });
});
