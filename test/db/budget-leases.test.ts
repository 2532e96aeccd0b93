// Budget leases (src/billing/budget-leases.ts): budgets admitted in memory against per-process leases of a period's
// remainder. Two "instances" (two lease holders on one database) admit and settle one budget's requests in any order:
// what is in flight never passes the limit, the spend passes it by at most what costs took beyond their holds, every
// cost lands in the period once, and after both stop nothing stays leased. A new UTC period starts at zero on both.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Principal } from '../../src/auth/principal.js';
import { admitBudgets, budgetId } from '../../src/billing/budget-admission.js';
import { BudgetLeases, type BudgetPool } from '../../src/billing/budget-leases.js';
import { returnLeasedHold, type Admission } from '../../src/billing/admission.js';
import { NEVER_RESETS } from '../../src/billing/key-periods.js';
import { settleGenerations, type Settlement } from '../../src/billing/settlement.js';
import type { Db } from '../../src/db/database.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { createLogger } from '../../src/logger.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

const silent = createLogger('silent');

function instance(db: Db, holder: string): BudgetLeases {
  return new BudgetLeases(db, silent, {
    holder,
    ttlSeconds: 60,
    idleReleaseMs: 5_000,
    extensionMultiple: 4n,
    maxExtensionMultiple: 64n,
  });
}

async function period(db: Db, id: string, start = NEVER_RESETS) {
  return db
    .selectFrom('budget_spend')
    .selectAll()
    .where('budget_id', '=', id)
    .where('period_start', '=', start)
    .executeTakeFirst();
}

describeEachDatabase('budget leases', ({ db }) => {
  it('never lets two instances together hold more than the limit, and settles every cost once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            instance: fc.integer({ min: 0, max: 1 }),
            amount: fc.integer({ min: 1, max: 400 }),
            costRatio: fc.double({ min: 0, max: 1.3, noNaN: true }),
          }),
          { minLength: 1, maxLength: 24 },
        ),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 3000 }),
        async (requests, waves, limit) => {
          const user = await insertTestUser(db());
          const id = budgetId('organization', user.id);
          const pool: BudgetPool = {
            level: 'organization',
            budgetId: id,
            periodStart: NEVER_RESETS,
            limitNanos: BigInt(limit),
            reset: null,
          };
          const instances = [instance(db(), uniqueId('a-')), instance(db(), uniqueId('b-'))];
          let costs = 0n;
          let beyond = 0n;
          let next = 0;
          for (const size of waves) {
            const wave = requests.slice(next, next + size);
            next += size;
            const spentBefore = (await period(db(), id))?.spent_nanos ?? 0n;
            const results = await Promise.all(wave.map((r) => instances[r.instance].reserve([pool], BigInt(r.amount))));
            // What is in flight fits in what the period had left.
            const inFlight = wave.reduce((sum, r, i) => (results[i].ok ? sum + BigInt(r.amount) : sum), 0n);
            expect(spentBefore + inFlight).toBeLessThanOrEqual(BigInt(limit) + beyond);
            const settlements: Settlement[] = [];
            for (const [i, result] of results.entries()) {
              if (!result.ok) continue;
              const cost = BigInt(Math.floor(wave[i].amount * wave[i].costRatio));
              costs += cost;
              if (cost > BigInt(wave[i].amount)) beyond += cost - BigInt(wave[i].amount);
              const admission: Admission = {
                mode: 'free',
                userId: user.id,
                reservedNanos: 0n,
                budgets: { holds: result.holds },
              };
              returnLeasedHold(admission, cost);
              settlements.push({ admission, record: creditsGenerationRecord(user.id, cost) });
            }
            await settleGenerations(db(), settlements);
            const row = await period(db(), id);
            // Overspend is bounded by what costs took beyond their own holds.
            expect(row?.spent_nanos ?? 0n).toBeLessThanOrEqual(BigInt(limit) + beyond);
            expect(row?.spent_nanos ?? 0n).toBe(costs);
          }
          await Promise.all(instances.map((i) => i.close()));
          const row = await period(db(), id);
          expect(row?.spent_nanos ?? 0n).toBe(costs);
          expect(row?.leased_nanos ?? 0n).toBe(0n);
          const leases = await db().selectFrom('budget_leases').selectAll().where('budget_id', '=', id).execute();
          expect(leases).toEqual([]);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('starts a daily, weekly and monthly budget over at the UTC boundary on both instances', async () => {
    const user = await insertTestUser(db());
    const instances = [instance(db(), uniqueId('a-')), instance(db(), uniqueId('b-'))];
    const cases = [
      { reset: 'daily', before: '2026-03-10T23:59:59Z', after: '2026-03-11T00:00:00Z' },
      { reset: 'weekly', before: '2026-03-15T23:59:59Z', after: '2026-03-16T00:00:00Z' },
      { reset: 'monthly', before: '2026-03-31T23:59:59Z', after: '2026-04-01T00:00:00Z' },
    ] as const;
    for (const { reset, before, after } of cases) {
      const principal = {
        kind: 'api_key',
        organizationId: user.id,
        memberUserId: user.id,
        budgets: { organization: { limitNanos: 1_000n, reset }, member: null },
      } as unknown as Principal;
      const admitAt = (at: string, which: number, amountNanos = 600n) =>
        admitBudgets(instances[which], { principal, amountNanos, now: new Date(at) });
      // Spend the period to its limit through instance A, settled.
      const held = await admitAt(before, 0);
      const admission: Admission = { mode: 'free', userId: user.id, reservedNanos: 0n, budgets: held };
      returnLeasedHold(admission, 1_000n);
      await settleGenerations(db(), [{ admission, record: creditsGenerationRecord(user.id, 1_000n) }]);
      await instances[0].releaseIdle(0);
      // Instance B is refused before the boundary, naming the budget and when it resets...
      const refusal = await admitAt(before, 1).catch((err: unknown) => err);
      expect(refusal).toBeInstanceOf(GatewayError);
      expect((refusal as GatewayError).metadata).toMatchObject({
        budget: 'organization',
        reset,
        resets_at: after.replace('Z', '.000Z'),
      });
      // ...and both admit again at the boundary, with no coordination.
      expect((await admitAt(after, 1, 100n))?.holds).toHaveLength(1);
      expect((await admitAt(after, 0, 100n))?.holds).toHaveLength(1);
    }
    await Promise.all(instances.map((i) => i.close()));
  });

  it("reclaims a dead instance's lease for the others", async () => {
    const user = await insertTestUser(db());
    const pool: BudgetPool = {
      level: 'member',
      budgetId: budgetId('member', user.id, user.id),
      periodStart: NEVER_RESETS,
      limitNanos: 1_000n,
      reset: null,
    };
    const dead = instance(db(), uniqueId('dead-'));
    expect((await dead.reserve([pool], 100n)).ok).toBe(true);
    const alive = new BudgetLeases(db(), silent, {
      holder: uniqueId('alive-'),
      ttlSeconds: 0,
      idleReleaseMs: 5_000,
      extensionMultiple: 1n,
      maxExtensionMultiple: 1n,
    });
    expect((await period(db(), pool.budgetId))?.leased_nanos).toBeGreaterThan(0n);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await alive.tick();
    expect((await period(db(), pool.budgetId))?.leased_nanos).toBe(0n);
    expect((await alive.reserve([pool], 1_000n)).ok).toBe(true);
  });
});
