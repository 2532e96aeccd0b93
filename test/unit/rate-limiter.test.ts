import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TokenBucketRateLimiter, type RateBudget, type RateLimits } from '../../src/limits/rate-limiter.js';
import { rateBudgetsOf } from '../../src/limits/admit-rate.js';
import type { Principal } from '../../src/auth/principal.js';
import { FreeRequestCounter, utcDayStart, type FreeRequestRecords } from '../../src/limits/free-requests.js';

/** One key's budget alone (a bucket per name). */
const only = (bucket: string, limits: RateLimits): RateBudget[] => [{ scope: 'account', bucket, limits }];

describe('token bucket rate limiter', () => {
  it('allows rpm requests at once, then refuses with a Retry-After until the bucket refills', () => {
    const limiter = new TokenBucketRateLimiter();
    const limits = { rpm: 3, tpm: 0 };
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.admit(only('k', limits), 0, t0).ok).toBe(true);
    const refused = limiter.admit(only('k', limits), 0, t0);
    expect(refused).toMatchObject({ ok: false, exceeded: 'requests', retryAfterSeconds: 20 });
    expect(refused.state).toMatchObject({ limit: 3, remaining: 0, resetAtMs: t0 + 60_000 });
    expect(limiter.admit(only('k', limits), 0, t0 + 19_999).ok).toBe(false);
    expect(limiter.admit(only('k', limits), 0, t0 + 20_000).ok).toBe(true);
    // Keys are independent.
    expect(limiter.admit(only('other', limits), 0, t0).ok).toBe(true);
  });

  it('limits tokens per minute and lets one oversized request run on a full budget', () => {
    const limiter = new TokenBucketRateLimiter();
    const limits = { rpm: 0, tpm: 1000 };
    expect(limiter.admit(only('k', limits), 5000, 0).ok).toBe(true);
    const refused = limiter.admit(only('k', limits), 10, 0);
    expect(refused).toMatchObject({ ok: false, exceeded: 'tokens' });
    expect(limiter.consumeTokens(only('j', limits), 999, 0)).toBe(true);
    expect(limiter.consumeTokens(only('j', limits), 2, 0)).toBe(false);
  });

  it("reports the tightest token budget beside the request budget, and a refusal's wait in milliseconds", () => {
    const limiter = new TokenBucketRateLimiter();
    const t0 = 5_000_000;
    const budgets: RateBudget[] = [
      { scope: 'key', bucket: 'k', limits: { rpm: 600, tpm: 1000 } },
      { scope: 'account', bucket: 'a', limits: { rpm: 6, tpm: 60_000 } },
    ];
    const first = limiter.admit(budgets, 250, t0);
    // The key's 1000 tokens are the tightest: 750 left, full again in 250/1000 of a minute.
    expect(first).toMatchObject({
      ok: true,
      state: { limit: 6, remaining: 5, resetAtMs: t0 + 10_000, resetInMs: 10_000 },
      tokens: { limit: 1000, remaining: 750, resetAtMs: t0 + 15_000, resetInMs: 15_000 },
    });
    // Without a token limit there is no token state.
    expect(limiter.admit(only('r', { rpm: 5, tpm: 0 }), 10, t0)).not.toHaveProperty('tokens');
    // 600 per minute: one request every 100 ms; the wait is told to the millisecond, Retry-After in whole seconds.
    const fast = only('f', { rpm: 600, tpm: 0 });
    for (let i = 0; i < 600; i++) limiter.admit(fast, 0, t0);
    expect(limiter.admit(fast, 0, t0 + 30)).toMatchObject({ ok: false, retryAfterMs: 70, retryAfterSeconds: 1 });
  });

  it('never admits more than rpm + refill over any interval (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 200 }),
        (rpm, gaps) => {
          const limiter = new TokenBucketRateLimiter();
          let now = 0;
          let admitted = 0;
          for (const gap of gaps) {
            now += gap;
            if (limiter.admit(only('k', { rpm, tpm: 0 }), 0, now).ok) admitted++;
          }
          expect(admitted).toBeLessThanOrEqual(rpm + Math.floor((now * rpm) / 60_000));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('free request counter', () => {
  /** Records that count `seeded` requests for the named accounts and keys, and note what was read. */
  const records = (seeded: Record<string, number>, reads: string[]): FreeRequestRecords => ({
    countForAccount: async (id) => {
      reads.push(id);
      return seeded[id] ?? 0;
    },
    countForKey: async (id) => {
      reads.push(id);
      return seeded[id] ?? 0;
    },
  });

  it('counts per account and UTC day, seeded once from stored records', async () => {
    const reads: string[] = [];
    const counter = new FreeRequestCounter(records({ busy: 2 }, reads));
    const noon = Date.UTC(2026, 10, 21, 12);
    const take = (accountId: string, limit: number, at = noon) => counter.take({ accountId, accountLimit: limit }, at);
    expect((await take('busy', 3)).ok).toBe(true);
    const refused = await take('busy', 3);
    expect(refused).toMatchObject({ ok: false, scope: 'account', used: 3, limit: 3, retryAfterSeconds: 12 * 3600 });
    const results = await Promise.all(Array.from({ length: 10 }, () => take('fresh', 4)));
    expect(results.filter((r) => r.ok)).toHaveLength(4);
    expect(reads).toEqual(['busy', 'fresh']);
    // A new UTC day starts over.
    expect((await take('busy', 3, utcDayStart(noon) + 86_400_000)).ok).toBe(true);
  });

  it("shares one allowance among an account's keys, concurrently, and keeps a key's tighter own allowance", async () => {
    const reads: string[] = [];
    const counter = new FreeRequestCounter(records({ acct: 1, 'key-b': 1 }, reads));
    const noon = Date.UTC(2026, 10, 21, 12);
    const keys = ['key-a', 'key-b', 'key-c'];
    // The account has 1 request of the day already; its allowance is 5, so 4 more among its three keys.
    const decisions = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        counter.take({ accountId: 'acct', accountLimit: 5, keyId: keys[i % 3] }, noon),
      ),
    );
    expect(decisions.filter((d) => d.ok)).toHaveLength(4);
    expect(decisions.find((d) => !d.ok)).toMatchObject({ scope: 'account', limit: 5, used: 5 });
    // Another account is not touched.
    expect((await counter.take({ accountId: 'other', accountLimit: 5, keyId: 'key-z' }, noon)).ok).toBe(true);

    // A key with an allowance of its own of 2 (it used 1 already): one more, then refused by the key, while the
    // account still has room for its other keys.
    const tight = new FreeRequestCounter(records({ 'key-t': 1 }, []));
    const byKey = (keyId: string, keyLimit?: number) =>
      tight.take({ accountId: 'acct2', accountLimit: 10, keyId, keyLimit }, noon);
    expect((await byKey('key-t', 2)).ok).toBe(true);
    expect(await byKey('key-t', 2)).toMatchObject({ ok: false, scope: 'key', limit: 2, used: 2 });
    expect((await byKey('key-u')).ok).toBe(true);
    // A key's allowance above its account's does not widen it.
    const wide = new FreeRequestCounter(records({}, []));
    const both = await Promise.all(
      [1, 2, 3].map(() => wide.take({ accountId: 'acct3', accountLimit: 2, keyId: 'k', keyLimit: 100 }, noon)),
    );
    expect(both.map((d) => d.ok)).toEqual([true, true, false]);
  });
});

describe("an account's budget and a key's own", () => {
  const account = (rpm: number, tpm = 0): RateBudget => ({ scope: 'account', bucket: '{acct}', limits: { rpm, tpm } });
  const key = (id: string, rpm: number, tpm = 0): RateBudget => ({
    scope: 'key',
    bucket: `{acct}:${id}`,
    limits: { rpm, tpm },
  });

  const principal = (userId: string, keyId: string, rateLimitRpm: number | null = null): Principal => ({
    kind: 'api_key',
    organizationId: userId,
    memberUserId: userId,
    role: 'owner',
    email: 'a@example.com',
    credentialId: keyId,
    limits: { rateLimitRpm, rateLimitTpm: null, freeRequestsPerDay: null, creditLimitNanos: null },
  });

  it("spends the account's requests per minute across its keys", () => {
    const limiter = new TokenBucketRateLimiter();
    const config = { rateLimitRpm: 4, rateLimitTpm: 0 };
    const keys = ['a', 'b', 'c'].map((id) => principal('acct', id));
    const decisions = Array.from({ length: 6 }, (_, i) => limiter.admit(rateBudgetsOf(keys[i % 3], config), 0, 0));
    expect(decisions.map((d) => d.ok)).toEqual([true, true, true, true, false, false]);
    expect(decisions[4]).toMatchObject({
      ok: false,
      exceeded: 'requests',
      budget: { scope: 'account' },
      state: { limit: 4, remaining: 0 },
    });
    // Another account has its own budget; a key with a limit of its own takes from both.
    expect(limiter.admit(rateBudgetsOf(principal('other', 'd'), config), 0, 0).ok).toBe(true);
    expect(rateBudgetsOf(principal('acct', 'e', 2), config).map((b) => b.scope)).toEqual(['key', 'account']);
    expect(limiter.admit(rateBudgetsOf(principal('acct', 'e', 2), config), 0, 0)).toMatchObject({
      ok: false,
      budget: { scope: 'account' },
    });
  });

  it("refuses with the key's tighter limit and takes nothing from the account then", () => {
    const limiter = new TokenBucketRateLimiter();
    const first = limiter.admit([key('a', 1), account(3)], 0, 0);
    // The headers show the tightest budget: the key's.
    expect(first).toMatchObject({ ok: true, state: { limit: 1, remaining: 0 } });
    expect(limiter.admit([key('a', 1), account(3)], 0, 0)).toMatchObject({ ok: false, budget: { scope: 'key' } });
    // The refused request took nothing from the account: two left for another key.
    expect([
      limiter.admit([account(3)], 0, 0).ok,
      limiter.admit([account(3)], 0, 0).ok,
      limiter.admit([account(3)], 0, 0).ok,
    ]).toEqual([true, true, false]);
  });

  it('counts generated tokens on both budgets and reports past either', () => {
    const limiter = new TokenBucketRateLimiter();
    expect(limiter.consumeTokens([key('a', 0, 100), account(0, 1000)], 150, 0)).toBe(false);
    expect(limiter.consumeTokens([account(0, 1000)], 800, 0)).toBe(true);
    expect(limiter.consumeTokens([account(0, 1000)], 100, 0)).toBe(false);
  });
});
