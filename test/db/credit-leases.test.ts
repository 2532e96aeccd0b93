// Credit leases (src/billing/credit-leases.ts): admission in memory against a per-process slice of the balance.
// Two "processes" (two lease managers with different holders) admit and settle one user's requests in any order:
// never more admitted than the balance, every debit equal to its cost, and after both stop every credit is back.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { CreditLeases, DEFAULT_LEASE_OPTIONS } from '../../src/billing/credit-leases.js';
import { returnLeasedHold, type Admission } from '../../src/billing/admission.js';
import { settleGenerations, type Settlement } from '../../src/billing/settlement.js';
import { getCreditAccount, grantCredits, listLedger } from '../../src/repositories/credits.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import type { Db } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

const silent = createLogger('silent');

function leases(
  db: Db,
  holder: string,
  clock?: () => number,
  overrides: Partial<typeof DEFAULT_LEASE_OPTIONS> = {},
): CreditLeases {
  return new CreditLeases(db, silent, { ...DEFAULT_LEASE_OPTIONS, ...overrides, holder }, clock);
}

/** What the settlement queue does for one request: the hold back to the lease at once, the debit in a batch. */
function settlementOf(admission: Admission, costNanos: bigint): Settlement {
  returnLeasedHold(admission, costNanos);
  return { admission, record: creditsGenerationRecord(admission.userId, costNanos) };
}

async function leaseRows(db: Db, userId: string) {
  return db.selectFrom('credit_leases').selectAll().where('user_id', '=', userId).execute();
}

/** What the settled costs took beyond their own holds: the most an account may owe (debt, not write-off). */
function beyondHolds(settled: readonly Settlement[]): bigint {
  let sum = 0n;
  for (const s of settled) {
    const over = BigInt(s.record.cost_nanos!) - (s.admission.mode === 'credits' ? s.admission.reservedNanos : 0n);
    if (over > 0n) sum += over;
  }
  return sum;
}

describeEachDatabase('credit leases', ({ db }) => {
  it('admits, from one process, exactly what fits in the balance', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 2000 }),
        async (amounts, balance) => {
          const user = await insertTestUser(db());
          if (balance > 0) await grantCredits(db(), { userId: user.id, amountNanos: BigInt(balance) });
          const manager = leases(db(), uniqueId('holder-'));
          const results = await Promise.all(amounts.map((a) => manager.reserve(user.id, BigInt(a))));
          const granted = amounts.filter((_, i) => results[i].ok).reduce((sum, a) => sum + a, 0);
          expect(granted).toBeLessThanOrEqual(balance);
          // Nothing that would have fit alone was refused, and a refusal says how much was left.
          for (const [i, r] of results.entries()) {
            if (!r.ok) {
              expect(amounts[i]).toBeGreaterThan(balance - granted);
              expect(r.availableNanos).toBeLessThan(BigInt(amounts[i]));
            }
          }
          // A background top-up may still be landing: the two reads below must see the same state.
          await manager.extensionsDone();
          const account = await getCreditAccount(db(), user.id);
          const [row] = await leaseRows(db(), user.id);
          expect(account.reservedNanos).toBe(row?.amount_nanos ?? 0n);
          await manager.close();
          expect((await getCreditAccount(db(), user.id)).reservedNanos).toBe(0n);
          expect(await leaseRows(db(), user.id)).toEqual([]);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('keeps the books of two processes admitting and settling one user in any order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            process: fc.integer({ min: 0, max: 1 }),
            amount: fc.integer({ min: 1, max: 400 }),
            costRatio: fc.double({ min: 0, max: 1.3, noNaN: true }),
          }),
          { minLength: 1, maxLength: 24 },
        ),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 3000 }),
        async (requests, batchSizes, balance) => {
          const user = await insertTestUser(db());
          if (balance > 0) await grantCredits(db(), { userId: user.id, amountNanos: BigInt(balance) });
          const processes = [leases(db(), uniqueId('a-')), leases(db(), uniqueId('b-'))];
          const admitted: Settlement[] = [];
          // Admit in waves with settlements between them, so later admissions reuse what earlier ones returned.
          let next = 0;
          for (const size of batchSizes) {
            const wave = requests.slice(next, next + size);
            next += size;
            const results = await Promise.all(wave.map((r) => processes[r.process].reserve(user.id, BigInt(r.amount))));
            const settlements: Settlement[] = [];
            for (const [i, result] of results.entries()) {
              if (!result.ok) continue;
              const admission: Admission = {
                mode: 'credits',
                userId: user.id,
                reservedNanos: BigInt(wave[i].amount),
                lease: result.lease,
              };
              settlements.push(settlementOf(admission, BigInt(Math.floor(wave[i].amount * wave[i].costRatio))));
            }
            await settleGenerations(db(), settlements);
            admitted.push(...settlements);
            // Debt, not write-off: only costs beyond their holds may take the balance below what is reserved.
            const account = await getCreditAccount(db(), user.id);
            expect(account.balanceNanos - account.reservedNanos).toBeGreaterThanOrEqual(-beyondHolds(admitted));
          }
          await Promise.all(processes.map((p) => p.close()));
          const account = await getCreditAccount(db(), user.id);
          const ledger = await listLedger(db(), user.id, 1000);
          const debited = ledger.filter((row) => row.kind === 'debit').reduce((sum, row) => sum - row.amount_nanos, 0n);
          expect(account.reservedNanos).toBe(0n);
          expect(account.balanceNanos).toBe(BigInt(balance) - debited);
          expect(account.balanceNanos).toBeGreaterThanOrEqual(-beyondHolds(admitted));
          // Every cost is debited in full, also beyond its hold (migration 0011).
          for (const s of admitted) {
            const cost = BigInt(s.record.cost_nanos!);
            const row = ledger.find((d) => d.generation_id === s.record.id);
            if (cost > 0n) expect(-row!.amount_nanos).toBe(cost);
          }
          expect(await leaseRows(db(), user.id)).toEqual([]);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('gives an idle lease back to the account and keeps what requests in flight hold', async () => {
    const user = await insertTestUser(db());
    await grantCredits(db(), { userId: user.id, amountNanos: 10_000n });
    let now = 1_000_000;
    const manager = leases(db(), uniqueId('holder-'), () => now, { idleReleaseMs: 5_000, extensionMultiple: 10n });
    const inFlight = await manager.reserve(user.id, 100n);
    expect(inFlight.ok).toBe(true);
    expect((await getCreditAccount(db(), user.id)).reservedNanos).toBe(1_000n);

    now += 1_000; // not idle yet
    await manager.tick();
    expect((await getCreditAccount(db(), user.id)).reservedNanos).toBe(1_000n);

    now += 10_000;
    await manager.tick();
    expect((await getCreditAccount(db(), user.id)).reservedNanos).toBe(100n);

    const admission: Admission = {
      mode: 'credits',
      userId: user.id,
      reservedNanos: 100n,
      lease: inFlight.ok ? inFlight.lease : undefined,
    };
    await settleGenerations(db(), [settlementOf(admission, 60n)]);
    expect(await getCreditAccount(db(), user.id)).toMatchObject({ balanceNanos: 9_940n, reservedNanos: 40n });
    await manager.tick();
    expect(await getCreditAccount(db(), user.id)).toMatchObject({ balanceNanos: 9_940n, reservedNanos: 0n });
    await manager.close();
  });

  it('tops a lease up in the background when it runs low, doubling it, so requests need not wait', async () => {
    const user = await insertTestUser(db());
    await grantCredits(db(), { userId: user.id, amountNanos: 100_000n });
    const manager = leases(db(), uniqueId('holder-'), undefined, { extensionMultiple: 10n });
    expect((await manager.reserve(user.id, 100n)).ok).toBe(true);
    expect((await getCreditAccount(db(), user.id)).reservedNanos).toBe(1_000n);
    // 900 free; the 7th next request leaves 200, under a quarter of the last grant: a top-up of 2 × 1000 starts.
    for (let i = 0; i < 7; i++) expect((await manager.reserve(user.id, 100n)).ok).toBe(true);
    await manager.extensionsDone();
    expect((await getCreditAccount(db(), user.id)).reservedNanos).toBe(3_000n);
    const [row] = await leaseRows(db(), user.id);
    expect(row.amount_nanos).toBe(3_000n);
    await manager.close();
    expect((await getCreditAccount(db(), user.id)).reservedNanos).toBe(0n);
  });

  it("reclaims a dead process's lease; the process then stops admitting against it", async () => {
    const user = await insertTestUser(db());
    await grantCredits(db(), { userId: user.id, amountNanos: 1_000n });
    // Share divisor 1: one grant may take the whole unreserved balance (the default takes a quarter).
    const dead = leases(db(), uniqueId('dead-'), undefined, { shareDivisor: 1n });
    const held = await dead.reserve(user.id, 100n);
    expect(held.ok).toBe(true);
    expect((await getCreditAccount(db(), user.id)).reservedNanos).toBe(1_000n);

    // Another process, with a TTL of 0, finds the lease unrenewed and takes it back.
    const other = leases(db(), uniqueId('alive-'), undefined, { ttlSeconds: 0, shareDivisor: 1n });
    await new Promise((resolve) => setTimeout(resolve, 5)); // the database clock must move past renewed_at
    await other.tick();
    expect((await getCreditAccount(db(), user.id)).reservedNanos).toBe(0n);
    expect(await leaseRows(db(), user.id)).toEqual([]);
    expect((await other.reserve(user.id, 1_000n)).ok).toBe(true);

    // The "dead" process wakes up: its heartbeat finds the lease gone; its request in flight is still charged in
    // full, out of the balance (which the other process's lease now holds all of: the account owes it).
    await dead.tick();
    expect(held.ok && held.lease!.lost).toBe(true);
    const admission: Admission = {
      mode: 'credits',
      userId: user.id,
      reservedNanos: 100n,
      lease: held.ok ? held.lease : undefined,
    };
    await settleGenerations(db(), [settlementOf(admission, 50n)]);
    expect(await getCreditAccount(db(), user.id)).toMatchObject({ balanceNanos: 950n, reservedNanos: 1_000n });
    await other.close();
    await dead.close();
    expect(await getCreditAccount(db(), user.id)).toMatchObject({ balanceNanos: 950n, reservedNanos: 0n });
  });
});
