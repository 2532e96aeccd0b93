import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TokenBucketRateLimiter } from '../../src/limits/rate-limiter.js';
import { FreeRequestCounter, utcDayStart } from '../../src/limits/free-requests.js';

describe('token bucket rate limiter', () => {
  it('allows rpm requests at once, then refuses with a Retry-After until the bucket refills', () => {
    const limiter = new TokenBucketRateLimiter();
    const limits = { rpm: 3, tpm: 0 };
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.admit('k', limits, 0, t0).ok).toBe(true);
    const refused = limiter.admit('k', limits, 0, t0);
    expect(refused).toMatchObject({ ok: false, exceeded: 'requests', retryAfterSeconds: 20 });
    expect(refused.state).toMatchObject({ limit: 3, remaining: 0, resetAtMs: t0 + 60_000 });
    expect(limiter.admit('k', limits, 0, t0 + 19_999).ok).toBe(false);
    expect(limiter.admit('k', limits, 0, t0 + 20_000).ok).toBe(true);
    // Keys are independent.
    expect(limiter.admit('other', limits, 0, t0).ok).toBe(true);
  });

  it('limits tokens per minute and lets one oversized request run on a full budget', () => {
    const limiter = new TokenBucketRateLimiter();
    const limits = { rpm: 0, tpm: 1000 };
    expect(limiter.admit('k', limits, 5000, 0).ok).toBe(true);
    const refused = limiter.admit('k', limits, 10, 0);
    expect(refused).toMatchObject({ ok: false, exceeded: 'tokens' });
    expect(limiter.consumeTokens('j', limits, 999, 0)).toBe(true);
    expect(limiter.consumeTokens('j', limits, 2, 0)).toBe(false);
  });

  it('never admits more than rpm + refill over any interval (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 200 }), (rpm, gaps) => {
        const limiter = new TokenBucketRateLimiter();
        let now = 0;
        let admitted = 0;
        for (const gap of gaps) {
          now += gap;
          if (limiter.admit('k', { rpm, tpm: 0 }, 0, now).ok) admitted++;
        }
        expect(admitted).toBeLessThanOrEqual(rpm + Math.floor((now * rpm) / 60_000));
      }),
      { numRuns: 200 },
    );
  });
});

describe('free request counter', () => {
  it('counts per key and UTC day, seeded once from stored records', async () => {
    const seeds: string[] = [];
    const counter = new FreeRequestCounter(async (keyId) => {
      seeds.push(keyId);
      return keyId === 'busy' ? 2 : 0;
    });
    const noon = Date.UTC(2026, 10, 21, 12);
    expect((await counter.take('busy', 3, noon)).ok).toBe(true);
    const refused = await counter.take('busy', 3, noon);
    expect(refused).toMatchObject({ ok: false, used: 3, limit: 3, retryAfterSeconds: 12 * 3600 });
    const results = await Promise.all(Array.from({ length: 10 }, () => counter.take('fresh', 4, noon)));
    expect(results.filter((r) => r.ok)).toHaveLength(4);
    expect(seeds).toEqual(['busy', 'fresh']);
    // A new UTC day starts over.
    expect((await counter.take('busy', 3, utcDayStart(noon) + 86_400_000)).ok).toBe(true);
  });
});
