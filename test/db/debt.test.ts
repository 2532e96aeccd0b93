// Debt, not write-off (migration 0011), through credit leases on several "instances" (one lease manager each, with its
// own holder and LISTEN, as in credit-lease-recalls.test.ts): whatever the interleaving of admissions and settlements,
// every cost is debited in full, the ledger equals the recorded costs, and once an account is in debt the unused leases
// of every instance are recalled, so no instance admits another paid request against money that is gone.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CreditLeases, DEFAULT_LEASE_OPTIONS } from '../../src/billing/credit-leases.js';
import { returnLeasedHold, type Admission } from '../../src/billing/admission.js';
import { settleGenerations } from '../../src/billing/settlement.js';
import { getCreditAccount, grantCredits, listLedger } from '../../src/repositories/credits.js';
import { createLogger } from '../../src/logger.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import {
  describeEachBackend,
  insertTestUser,
  openTestDatabase,
  uniqueId,
  type OpenTestDatabase,
} from '../helpers/databases.js';

const silent = createLogger('silent');

describeEachBackend('debt through credit leases', (backend) => {
  let database: OpenTestDatabase;
  const db = () => database.db;

  beforeAll(async () => {
    database = await openTestDatabase(backend, { migrated: true });
  });
  afterAll(async () => {
    await database?.close();
  });

  async function instances(count: number): Promise<CreditLeases[]> {
    return Promise.all(
      Array.from({ length: count }, async () => {
        const leases = new CreditLeases(db(), silent, { ...DEFAULT_LEASE_OPTIONS, holder: uniqueId('gw-') });
        await leases.listen({ db: db(), databaseUrl: database.url, pglite: database.pglite });
        return leases;
      }),
    );
  }

  async function userWith(balance: bigint): Promise<string> {
    const user = await insertTestUser(db());
    await grantCredits(db(), { userId: user.id, amountNanos: balance });
    return user.id;
  }

  function admit(leases: CreditLeases, userId: string, amount: bigint): Promise<Admission | undefined> {
    return leases
      .reserve(userId, amount)
      .then((r) => (r.ok ? { mode: 'credits', userId, reservedNanos: amount, lease: r.lease } : undefined));
  }

  /** What the settlement queue does: the hold back to its lease at once, then the record and its debit. */
  async function settle(admission: Admission, costNanos: bigint): Promise<string> {
    returnLeasedHold(admission, costNanos);
    const record = creditsGenerationRecord(admission.userId, costNanos);
    await settleGenerations(db(), [{ admission, record }]);
    return record.id;
  }

  async function leaseAmounts(userId: string): Promise<bigint[]> {
    const rows = await db().selectFrom('credit_leases').select('amount_nanos').where('user_id', '=', userId).execute();
    return rows.map((row) => row.amount_nanos);
  }

  async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('debits a cost beyond the lease and the balance in full, and recalls the unused leases of every instance', async () => {
    const userId = await userWith(10_000n);
    const [a, b] = await Promise.all(await instances(2));
    // b leases a slice and leaves it unused in memory: without a recall it could admit against it later.
    const early = await admit(b, userId, 100n);
    await settle(early!, 100n);
    const held = await admit(a, userId, 100n);
    expect(held).toBeDefined();
    expect((await leaseAmounts(userId)).every((amount) => amount > 0n)).toBe(true);

    // The upstream reported far more than the bound: 50,000 against 9,900 left.
    const id = await settle(held!, 50_000n);
    const [debit] = (await listLedger(db(), userId, 10)).filter((row) => row.generation_id === id);
    expect(debit.amount_nanos).toBe(-50_000n);
    const account = await getCreditAccount(db(), userId);
    expect(account).toMatchObject({ balanceNanos: 10_000n - 100n - 50_000n, totalUsedNanos: 50_100n });

    // The settlement's NOTIFY reaches both instances: each gives back what no request of its holds.
    await until(
      async () => (await leaseAmounts(userId)).every((amount) => amount === 0n),
      'every lease was given back',
    );
    expect((await getCreditAccount(db(), userId)).reservedNanos).toBe(0n);
    expect(await admit(b, userId, 100n)).toBeUndefined();
    expect(await admit(a, userId, 100n)).toBeUndefined();
    await Promise.all([a.close(), b.close()]);
  });

  it('keeps the ledger equal to the costs under any interleaving of admissions and settlements on three instances', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.noBias(fc.integer({ min: 200, max: 5_000 })),
        fc.array(
          fc.record({
            instance: fc.integer({ min: 0, max: 2 }),
            reserve: fc.integer({ min: 1, max: 400 }),
            // Up to four times the bound: the admission estimate was low.
            costRatio: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 4, noNaN: true })),
          }),
          { minLength: 5, maxLength: 30 },
        ),
        async (balance, requests) => {
          const userId = await userWith(BigInt(balance));
          const managers = await instances(3);
          const outcomes = await Promise.all(
            requests.map(async (request) => {
              const reserved = BigInt(request.reserve);
              const admission = await admit(managers[request.instance], userId, reserved);
              if (admission === undefined) return { cost: 0n, excess: 0n, id: undefined };
              await new Promise((resolve) => setTimeout(resolve, request.reserve % 7));
              const cost = BigInt(Math.floor(request.reserve * request.costRatio));
              return { cost, excess: cost > reserved ? cost - reserved : 0n, id: await settle(admission, cost) };
            }),
          );
          await Promise.all(managers.map((m) => m.close()));

          const costs = outcomes.reduce((sum, o) => sum + o.cost, 0n);
          const excess = outcomes.reduce((sum, o) => sum + o.excess, 0n);
          const account = await getCreditAccount(db(), userId);
          expect(account).toEqual({
            balanceNanos: BigInt(balance) - costs,
            reservedNanos: 0n,
            totalGrantedNanos: BigInt(balance),
            totalUsedNanos: costs,
          });
          expect(account.balanceNanos).toBeGreaterThanOrEqual(-excess);
          const debits = (await listLedger(db(), userId, 1000)).filter((row) => row.kind === 'debit');
          const charged = outcomes.filter((o) => o.id !== undefined && o.cost > 0n);
          expect(debits).toHaveLength(charged.length);
          for (const o of charged) expect(debits.find((d) => d.generation_id === o.id)!.amount_nanos).toBe(-o.cost);
          expect(await leaseAmounts(userId)).toEqual([]);
        },
      ),
      { numRuns: 10, endOnFailure: true },
    );
  });
});
