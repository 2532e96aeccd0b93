import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { getCreditAccount, grantCredits, releaseCredits, reserveCredits } from '../../src/repositories/credits.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';
import { settleCreditsRequest } from '../helpers/generation-records.js';

// Many requests of one user racing through reserve → settle | release against a small balance.
// Whatever the interleaving: every cost is debited in full (debt, not write-off), the debt never exceeds what
// requests cost beyond their reservations, every reservation is returned, and the ledger agrees with the costs.

interface Operation {
  reserve: number;
  outcome: 'settle' | 'release';
  /** Cost as a fraction of the reservation; above 1 exercises debt. */
  costRatio: number;
  /** Settle the same generation twice (a retried settle after a client disconnect). */
  duplicateSettle: boolean;
}

// Weighted towards the cases that can break the invariants: full-cost settles competing with
// settles that cost more than they reserved.
const operation: fc.Arbitrary<Operation> = fc.record({
  reserve: fc.integer({ min: 1, max: 300 }),
  outcome: fc.oneof(
    { arbitrary: fc.constant('settle' as const), weight: 3 },
    { arbitrary: fc.constant('release' as const), weight: 1 },
  ),
  costRatio: fc.oneof(
    { arbitrary: fc.constant(1), weight: 3 },
    { arbitrary: fc.double({ min: 1, max: 2, noNaN: true }), weight: 2 },
    { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }), weight: 1 },
    { arbitrary: fc.constant(0), weight: 1 },
  ),
  duplicateSettle: fc.boolean(),
});

/** Must hold in every committed state, so any read at any moment may check it. */
async function expectConsistent(db: Db, userId: string): Promise<void> {
  const account = await getCreditAccount(db, userId);
  expect(account.reservedNanos).toBeGreaterThanOrEqual(0n);
  expect(account.balanceNanos).toBe(account.totalGrantedNanos - account.totalUsedNanos);
}

interface Outcome {
  debited: bigint;
  settled: number;
  /** What the request cost beyond its reservation: the most it can add to a debt. */
  excess: bigint;
}

async function runOperation(db: Db, userId: string, op: Operation): Promise<Outcome> {
  const reserved = BigInt(op.reserve);
  const reservation = await reserveCredits(db, { userId, amountNanos: reserved });
  await expectConsistent(db, userId);
  if (!reservation.ok) return { debited: 0n, settled: 0, excess: 0n };
  if (op.outcome === 'release') {
    await releaseCredits(db, { userId, amountNanos: reserved });
    await expectConsistent(db, userId);
    return { debited: 0n, settled: 0, excess: 0n };
  }
  const input = {
    userId,
    generationId: uniqueId('gen-'),
    reservedNanos: reserved,
    costNanos: BigInt(Math.floor(op.reserve * op.costRatio)),
  };
  const results = await Promise.all(
    op.duplicateSettle
      ? [settleCreditsRequest(db, input), settleCreditsRequest(db, input)]
      : [settleCreditsRequest(db, input)],
  );
  await expectConsistent(db, userId);
  const fresh = results.filter((r) => r.fresh);
  expect(fresh).toHaveLength(1);
  // Every cost is debited in full, also beyond the reservation and whatever the balance has left.
  expect(fresh[0].debitedNanos).toBe(input.costNanos);
  // Only a cost writes a ledger row (a zero-cost request just returns its hold).
  const excess = input.costNanos > reserved ? input.costNanos - reserved : 0n;
  return { debited: fresh[0].debitedNanos, settled: input.costNanos > 0n ? 1 : 0, excess };
}

describeEachDatabase('credits under concurrency', (ctx) => {
  it('debits every cost in full, owes at most the costs beyond reservations, returns reservations, and the ledger matches', async () => {
    const db = ctx.db();
    await fc.assert(
      fc.asyncProperty(
        // noBias: with only 15 runs, fast-check's lean towards tiny values would leave most
        // reservations failing and the interesting contended cases untested.
        fc.noBias(fc.integer({ min: 1, max: 1500 })),
        fc.noBias(fc.array(operation, { minLength: 20, maxLength: 40 })),
        async (initialBalance, operations) => {
          const { id: userId } = await insertTestUser(db);
          await grantCredits(db, { userId, amountNanos: BigInt(initialBalance) });
          const outcomes = await Promise.all(operations.map((op) => runOperation(db, userId, op)));

          const debited = outcomes.reduce((sum, o) => sum + o.debited, 0n);
          const settled = outcomes.reduce((sum, o) => sum + o.settled, 0);
          const excess = outcomes.reduce((sum, o) => sum + o.excess, 0n);
          const account = await getCreditAccount(db, userId);
          // Admission never takes the unreserved balance below zero: only costs beyond their reservations can.
          expect(account.balanceNanos).toBeGreaterThanOrEqual(-excess);
          expect(account).toEqual({
            balanceNanos: BigInt(initialBalance) - debited,
            reservedNanos: 0n,
            totalGrantedNanos: BigInt(initialBalance),
            totalUsedNanos: debited,
          });
          const ledger = await db
            .selectFrom('credit_ledger')
            .select((eb) => [
              eb.fn.countAll<bigint>().as('rows'),
              eb.fn.sum<string | bigint>('amount_nanos').as('total'),
            ])
            .where('user_id', '=', userId)
            .where('kind', '=', 'debit')
            .executeTakeFirstOrThrow();
          expect(Number(ledger.rows)).toBe(settled);
          expect(BigInt(ledger.total ?? 0)).toBe(-debited);
        },
      ),
      // No shrinking: it would replay dozens of concurrent runs; the failing case is printed as is.
      { numRuns: 15, endOnFailure: true },
    );
  });
});
