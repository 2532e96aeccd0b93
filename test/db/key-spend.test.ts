// A limited key's spend row (migration 0007): concurrent reservations never pass the limit, settlement turns holds
// into spend exactly once (with the generation record and its debit), and a cost above the limit is charged in full.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Admission } from '../../src/billing/admission.js';
import { settleGenerations } from '../../src/billing/settlement.js';
import { grantCredits, reserveCredits } from '../../src/repositories/credits.js';
import { findKeySpend, releaseKeySpend, reserveKeySpend } from '../../src/repositories/api-key-spend.js';
import { issueApiKey } from '../../src/auth/issue-credentials.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import { describeEachDatabase, insertTestUser } from '../helpers/databases.js';
import type { Db } from '../../src/db/database.js';

const PERIOD = new Date('2026-03-10T00:00:00Z');

async function limitedKey(db: Db, limitNanos: bigint) {
  const user = await insertTestUser(db);
  await grantCredits(db, { userId: user.id, amountNanos: 1_000_000_000n });
  const { row } = await issueApiKey(db, { organizationId: user.id, memberUserId: user.id, name: 'k' });
  await db.updateTable('api_keys').set({ credit_limit_nanos: limitNanos }).where('id', '=', row.id).execute();
  return { userId: user.id, keyId: row.id };
}

describeEachDatabase('key spend', ({ db }) => {
  it('admits concurrent reservations only while they fit the limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 2000 }),
        async (amounts, limit) => {
          const { keyId } = await limitedKey(db(), BigInt(limit));
          const results = await Promise.all(
            amounts.map((a) => reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: BigInt(a) })),
          );
          const held = amounts.filter((_, i) => results[i].ok).reduce((s, a) => s + BigInt(a), 0n);
          expect(held).toBeLessThanOrEqual(BigInt(limit));
          const row = await findKeySpend(db(), keyId, PERIOD);
          expect(row?.reserved_nanos ?? 0n).toBe(held);
          // Holds only grow here, so what was left when a request was refused is at least what is left at the end:
          // every refused amount must exceed that (no request was refused while it fitted).
          const refused = amounts.filter((_, i) => !results[i].ok);
          for (const amount of refused) expect(BigInt(amount)).toBeGreaterThan(BigInt(limit) - held);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('settles holds into spend exactly once, charges a cost above the limit in full, and releases unused holds', async () => {
    const { userId, keyId } = await limitedKey(db(), 1000n);
    const admissions: Admission[] = [];
    for (const amount of [300n, 300n, 300n]) {
      expect((await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: amount })).ok).toBe(true);
      expect((await reserveCredits(db(), { userId, amountNanos: amount })).ok).toBe(true);
      admissions.push({
        mode: 'credits',
        userId,
        reservedNanos: amount,
        keySpend: { keyId, periodStart: PERIOD, heldNanos: amount },
      });
    }
    // A fourth request does not fit (900 held of 1000).
    expect((await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 300n })).ok).toBe(false);
    const records = [200n, 250n].map((cost) => ({ ...creditsGenerationRecord(userId, cost), api_key_id: keyId }));
    const batch = records.map((record, i) => ({ admission: admissions[i], record }));
    expect(await settleGenerations(db(), batch)).toBe(2);
    expect(await findKeySpend(db(), keyId, PERIOD)).toEqual({ spent_nanos: 450n, reserved_nanos: 300n });
    // The same records again (a retried batch): nothing changes.
    expect(await settleGenerations(db(), batch)).toBe(0);
    expect(await findKeySpend(db(), keyId, PERIOD)).toEqual({ spent_nanos: 450n, reserved_nanos: 300n });
    // The third request cost far more than it held: the key's spend counts all of it and passes the limit (debt, not
    // write-off: raising the limit later does not forget what the key spent).
    const third = { ...creditsGenerationRecord(userId, 5000n), api_key_id: keyId };
    expect(await settleGenerations(db(), [{ admission: admissions[2], record: third }])).toBe(1);
    expect(await findKeySpend(db(), keyId, PERIOD)).toEqual({ spent_nanos: 5450n, reserved_nanos: 0n });
    expect((await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 1n })).ok).toBe(false);
    // Another period starts from zero.
    const next = new Date('2026-03-11T00:00:00Z');
    expect((await reserveKeySpend(db(), { keyId, periodStart: next, amountNanos: 1000n })).ok).toBe(true);
    await releaseKeySpend(db(), { keyId, periodStart: next, amountNanos: 1000n });
    expect(await findKeySpend(db(), keyId, next)).toEqual({ spent_nanos: 0n, reserved_nanos: 0n });
  });

  it('reads the limit from the key row in the reserving statement (a lowered limit applies at once)', async () => {
    const { keyId } = await limitedKey(db(), 1000n);
    expect((await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 400n })).ok).toBe(true);
    await db().updateTable('api_keys').set({ credit_limit_nanos: 500n }).where('id', '=', keyId).execute();
    const refused = await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 200n });
    expect(refused).toEqual({ ok: false, spentNanos: 0n, reservedNanos: 400n, limitNanos: 500n });
    // Removed: a request admitted by an instance whose cache still has the limit is not refused.
    await db().updateTable('api_keys').set({ credit_limit_nanos: null }).where('id', '=', keyId).execute();
    expect((await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 10_000n })).ok).toBe(true);
  });
});
