// Credit leases across processes (issue 18 §2): a lease never refuses a request the account can pay for. Several
// lease managers (one per "instance", each with its own holder and its own LISTEN) over one database: an instance
// that cannot lease enough recalls the others' unused leases; 402 only when the account truly lacks the credit.
import fc from 'fast-check';
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { CreditLeases, DEFAULT_LEASE_OPTIONS, type CreditLeaseOptions } from '../../src/billing/credit-leases.js';
import { returnLeasedHold, type Admission } from '../../src/billing/admission.js';
import { settleGenerations, type Settlement } from '../../src/billing/settlement.js';
import {
  getCreditAccount,
  grantCredits,
  listLedger,
  releaseCredits,
  reserveCredits,
} from '../../src/repositories/credits.js';
import type { Db } from '../../src/db/database.js';
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

describeEachBackend('credit lease recalls', (backend) => {
  let database: OpenTestDatabase;
  const db = () => database.db;

  beforeAll(async () => {
    database = await openTestDatabase(backend, { migrated: true });
  });
  afterAll(async () => {
    await database?.close();
  });

  /** `count` instances on the test database, each listening for recalls as a gateway does. */
  async function instances(
    count: number,
    options: Partial<CreditLeaseOptions> = {},
    on: Db = db(),
  ): Promise<CreditLeases[]> {
    return Promise.all(
      Array.from({ length: count }, async () => {
        const leases = new CreditLeases(on, silent, { ...DEFAULT_LEASE_OPTIONS, ...options, holder: uniqueId('gw-') });
        await leases.listen({ db: db(), databaseUrl: database.url, pglite: database.pglite });
        return leases;
      }),
    );
  }

  async function userWith(balance: bigint): Promise<string> {
    const user = await insertTestUser(db());
    if (balance > 0n) await grantCredits(db(), { userId: user.id, amountNanos: balance });
    return user.id;
  }

  function admit(leases: CreditLeases, userId: string, amount: bigint): Promise<Admission | undefined> {
    return leases
      .reserve(userId, amount)
      .then((r) => (r.ok ? { mode: 'credits', userId, reservedNanos: amount, lease: r.lease } : undefined));
  }

  /** What the settlement queue does: the hold back to its lease at once, the record and debit written. */
  async function settle(admission: Admission, costNanos: bigint): Promise<void> {
    returnLeasedHold(admission, costNanos);
    await settleGenerations(db(), [{ admission, record: creditsGenerationRecord(admission.userId, costNanos) }]);
  }

  async function expectCovered(userId: string): Promise<void> {
    const account = await getCreditAccount(db(), userId);
    expect(account.reservedNanos).toBeGreaterThanOrEqual(0n);
    expect(account.balanceNanos).toBeGreaterThanOrEqual(account.reservedNanos);
  }

  it('serves a 10 USD user whose requests alternate between two instances, though 16 worst cases exceed the balance', async () => {
    const userId = await userWith(10_000_000_000n);
    const [a, b] = await instances(2);
    const worstCase = 800_000_000n; // 0.8 USD: 16 of them are 12.8 USD
    for (let i = 0; i < 40; i++) {
      const admission = await admit(i % 2 === 0 ? a : b, userId, worstCase);
      expect(admission, `request ${i}`).toBeDefined();
      await settle(admission!, 1_000_000n);
    }
    // Both at once, then every instance's unused part recalled by a request that needs nearly all of it.
    const [x, y] = await Promise.all([admit(a, userId, worstCase), admit(b, userId, worstCase)]);
    await settle(x!, 0n);
    await settle(y!, 0n);
    const balance = 10_000_000_000n - 40n * 1_000_000n;
    const all = await admit(b, userId, balance);
    expect(all).toBeDefined();
    expect(await admit(a, userId, 1n)).toBeUndefined();
    await settle(all!, 0n);
    await Promise.all([a.close(), b.close()]);
    expect(await getCreditAccount(db(), userId)).toMatchObject({ balanceNanos: balance, reservedNanos: 0n });
  });

  it('gives one instance at most a share of the unreserved balance beyond what its request needs', async () => {
    const userId = await userWith(10_000n);
    const [a, b] = await instances(2);
    expect(await admit(a, userId, 100n)).toBeDefined();
    const [row] = await db()
      .selectFrom('credit_leases')
      .select('amount_nanos')
      .where('holder', '=', a.holder)
      .execute();
    expect(row.amount_nanos).toBe(1_600n); // 16 × 100, under a quarter of 10 000
    expect(await admit(b, userId, 5_000n)).toBeDefined(); // more than a quarter: exactly what it needs
    const [rowB] = await db()
      .selectFrom('credit_leases')
      .select('amount_nanos')
      .where('holder', '=', b.holder)
      .execute();
    expect(rowB.amount_nanos).toBe(5_000n);
    await Promise.all([a.close(), b.close()]);
  });

  it('after a recall, the instances lease only what each request needs (they do not take the credit back)', async () => {
    const userId = await userWith(10_000n);
    const [a, b] = await instances(2, { contendedMs: 600_000 }); // the whole test long, however slow the machine
    returnLeasedHold((await admit(a, userId, 100n))!, 0n); // a leases 1 600
    const big = await admit(b, userId, 9_000n); // 8 400 unreserved: b recalls a's lease
    expect(big).toBeDefined();
    const leaseOf = async (leases: CreditLeases) =>
      (
        await db()
          .selectFrom('credit_leases')
          .select('amount_nanos')
          .where('holder', '=', leases.holder)
          .where('user_id', '=', userId)
          .executeTakeFirst()
      )?.amount_nanos;
    expect(await leaseOf(a)).toBe(0n);
    expect(await leaseOf(b)).toBe(9_000n);
    // a's next request gets exactly its 100, not a share of the 1 000 left, and no top-up follows.
    const small = await admit(a, userId, 100n);
    await a.extensionsDone();
    expect(await leaseOf(a)).toBe(100n);
    await settle(small!, 0n);
    await settle(big!, 0n);
    await Promise.all([a.close(), b.close()]);
    expect(await getCreditAccount(db(), userId)).toMatchObject({ balanceNanos: 10_000n, reservedNanos: 0n });
  });

  it('admits a request whose lease has room without any database round trip', async () => {
    let queries = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const userId = await userWith(1_000_000n);
    const [a] = await instances(1, {}, db().withPlugin(counting));
    const first = await admit(a, userId, 100n);
    await settle(first!, 10n);
    await a.extensionsDone();
    const before = queries;
    for (let i = 0; i < 5; i++) returnLeasedHold((await admit(a, userId, 100n))!, 0n);
    expect(queries).toBe(before);
    await a.close();
  });

  if (backend === 'postgres') {
    it('an instance that cannot hear recalls gives its unused leases back and reserves on the account row until it hears again', async () => {
      const userId = await userWith(100_000n);
      const [a] = await instances(1, { recall: { ...DEFAULT_LEASE_OPTIONS.recall, reconnectDelayMs: 5_000 } });
      const leased = await admit(a, userId, 100n);
      expect(leased?.lease).toBeDefined();
      returnLeasedHold(leased!, 0n);
      expect((await getCreditAccount(db(), userId)).reservedNanos).toBe(1_600n);
      // The LISTEN connection dies (a network cut, a database restart).
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
                where datname = current_database() and query = 'listen modelgate_credit_leases'`.execute(db());
      await vi.waitFor(async () => expect((await getCreditAccount(db(), userId)).reservedNanos).toBe(0n), {
        timeout: 5_000,
        interval: 20,
      });
      expect(a.recalls?.listening).toBe(false);
      const direct = await admit(a, userId, 100n);
      expect(direct?.lease).toBeUndefined();
      expect((await getCreditAccount(db(), userId)).reservedNanos).toBe(100n);
      await settle(direct!, 100n);
      // Listening again: leases again.
      await vi.waitFor(() => expect(a.recalls?.listening).toBe(true), { timeout: 20_000, interval: 50 });
      const again = await admit(a, userId, 100n);
      expect(again?.lease).toBeDefined();
      await settle(again!, 0n);
      await a.close();
      expect(await getCreditAccount(db(), userId)).toMatchObject({ balanceNanos: 99_900n, reservedNanos: 0n });
    });
  }

  it('never refuses what a single database reservation would admit, and never overdraws (random sequences)', async () => {
    type Op =
      | { kind: 'admit'; instance: number; amount: number }
      | { kind: 'settle'; pick: number; costRatio: number }
      | { kind: 'release'; pick: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      // Small and large requests: a large one needs what the small ones' leases hold elsewhere.
      {
        arbitrary: fc.record({
          kind: fc.constant('admit' as const),
          instance: fc.nat(2),
          amount: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 100, max: 2000 })),
        }),
        weight: 3,
      },
      {
        arbitrary: fc.record({
          kind: fc.constant('settle' as const),
          pick: fc.nat(),
          costRatio: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        weight: 2,
      },
      { arbitrary: fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 3 }),
        fc.noBias(fc.integer({ min: 0, max: 3000 })),
        fc.array(op, { minLength: 1, maxLength: 40 }),
        async (count, balance, ops) => {
          // The same requests, once over `count` leasing instances and once straight on the account row of a twin.
          const leased = await userWith(BigInt(balance));
          const direct = await userWith(BigInt(balance));
          const managers = await instances(count);
          const inFlight: { leased: Admission; amount: bigint }[] = [];
          try {
            for (const [step, o] of ops.entries()) {
              if (o.kind === 'admit') {
                const amount = BigInt(o.amount);
                const viaLease = await admit(managers[o.instance % count], leased, amount);
                const viaRow = await reserveCredits(db(), { userId: direct, amountNanos: amount });
                expect(viaLease !== undefined, `step ${step}: admit ${amount}`).toBe(viaRow.ok);
                if (viaLease) inFlight.push({ leased: viaLease, amount });
              } else if (inFlight.length > 0) {
                const [done] = inFlight.splice(o.pick % inFlight.length, 1);
                if (o.kind === 'release') {
                  returnLeasedHold(done.leased, 0n);
                  await releaseCredits(db(), { userId: direct, amountNanos: done.amount });
                } else {
                  const cost = BigInt(Math.floor(Number(done.amount) * o.costRatio));
                  await settle(done.leased, cost);
                  const twin: Admission = { mode: 'credits', userId: direct, reservedNanos: done.amount };
                  await settleGenerations(db(), [{ admission: twin, record: creditsGenerationRecord(direct, cost) }]);
                }
              }
              await expectCovered(leased);
            }
            for (const done of inFlight) await settle(done.leased, done.amount);
          } finally {
            await Promise.all(managers.map((m) => m.close()));
          }
          const account = await getCreditAccount(db(), leased);
          const debited = (await listLedger(db(), leased, 1000)).reduce(
            (sum, row) => (row.kind === 'debit' ? sum - row.amount_nanos : sum),
            0n,
          );
          expect(account.reservedNanos).toBe(0n);
          expect(debited).toBeLessThanOrEqual(BigInt(balance));
          expect(account.balanceNanos).toBe(BigInt(balance) - debited);
        },
      ),
      { numRuns: 20 },
    );
  }, 180_000);

  it('keeps the books of three instances admitting and settling concurrently (costs above the hold included)', async () => {
    const request = fc.record({
      instance: fc.nat(2),
      amount: fc.integer({ min: 1, max: 400 }),
      costRatio: fc.double({ min: 0, max: 1.3, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.noBias(fc.integer({ min: 0, max: 3000 })),
        fc.array(fc.array(request, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 }),
        async (balance, waves) => {
          const userId = await userWith(BigInt(balance));
          const managers = await instances(3);
          const settled: Settlement[] = [];
          let overspent = false;
          /** What requests cost beyond their holds: the most the account can come to owe (debt, migration 0011). */
          let excess = 0n;
          try {
            for (const wave of waves) {
              const before = await getCreditAccount(db(), userId);
              const admissions = await Promise.all(
                wave.map((r) => admit(managers[r.instance], userId, BigInt(r.amount))),
              );
              const held = wave.reduce((sum, r, i) => (admissions[i] ? sum + BigInt(r.amount) : sum), 0n);
              for (const [i, r] of wave.entries()) {
                // A refusal only when what the wave's admitted requests held left too little (costs within holds so far).
                if (!admissions[i] && !overspent) expect(BigInt(r.amount)).toBeGreaterThan(before.balanceNanos - held);
              }
              const batch: Settlement[] = [];
              for (const [i, r] of wave.entries()) {
                const admission = admissions[i];
                if (!admission) continue;
                const cost = BigInt(Math.floor(r.amount * r.costRatio));
                overspent ||= cost > admission.reservedNanos;
                if (cost > admission.reservedNanos) excess += cost - admission.reservedNanos;
                returnLeasedHold(admission, cost);
                batch.push({ admission, record: creditsGenerationRecord(userId, cost) });
              }
              await settleGenerations(db(), batch);
              settled.push(...batch);
              // Until a cost passed its hold, what is reserved is covered; after, the account may owe it.
              if (!overspent) await expectCovered(userId);
            }
          } finally {
            await Promise.all(managers.map((m) => m.close()));
          }
          const account = await getCreditAccount(db(), userId);
          const ledger = await listLedger(db(), userId, 1000);
          const debited = ledger.reduce((sum, row) => (row.kind === 'debit' ? sum - row.amount_nanos : sum), 0n);
          expect(account.reservedNanos).toBe(0n);
          expect(account.balanceNanos).toBe(BigInt(balance) - debited);
          expect(account.balanceNanos).toBeGreaterThanOrEqual(-excess);
          // Every cost is debited in full, also above its hold.
          for (const s of settled) {
            const cost = BigInt(s.record.cost_nanos!);
            const row = ledger.find((d) => d.generation_id === s.record.id);
            if (cost > 0n) expect(-row!.amount_nanos).toBe(cost);
          }
        },
      ),
      { numRuns: 10 },
    );
  }, 180_000);
});
