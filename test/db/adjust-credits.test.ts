// Credit removals while running instances lease the credit (issues 18 §2 and 22): the removal recalls the leases and
// succeeds, also while the user keeps sending requests; it fails only when requests in flight hold the credit.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adjustCredits } from '../../src/billing/adjust-credits.js';
import { CreditLeases, DEFAULT_LEASE_OPTIONS } from '../../src/billing/credit-leases.js';
import { returnLeasedHold, type Admission } from '../../src/billing/admission.js';
import { settleGenerations } from '../../src/billing/settlement.js';
import {
  getCreditAccount,
  grantCredits,
  InsufficientCreditsError,
  listLedger,
} from '../../src/repositories/credits.js';
import { createLogger } from '../../src/logger.js';
import { runCli } from '../../src/cli.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import {
  describeEachBackend,
  insertTestUser,
  openTestDatabase,
  uniqueId,
  type OpenTestDatabase,
} from '../helpers/databases.js';

const silent = createLogger('silent');
const BALANCE = 1_000_000n;
const REQUEST = 1_000n;
const COST = 10n;

describeEachBackend('credit removals with leases held', (backend) => {
  let database: OpenTestDatabase;
  const db = () => database.db;

  beforeAll(async () => {
    database = await openTestDatabase(backend, { migrated: true });
  });
  afterAll(async () => {
    await database?.close();
  });

  /** Two listening instances that lease big slices (a quarter of the unreserved balance at once). */
  async function twoInstances(): Promise<CreditLeases[]> {
    return Promise.all(
      [0, 1].map(async () => {
        const leases = new CreditLeases(db(), silent, {
          ...DEFAULT_LEASE_OPTIONS,
          extensionMultiple: 1_000n,
          holder: uniqueId('gw-'),
        });
        await leases.listen({ db: db(), databaseUrl: database.url, pglite: database.pglite });
        return leases;
      }),
    );
  }

  /** A user's requests, admitted and settled one after another on one instance, until `stop` says so. */
  function traffic(
    leases: CreditLeases,
    userId: string,
    stop: { done: boolean },
  ): Promise<{ served: number; refused: number }> {
    return (async () => {
      let served = 0;
      let refused = 0;
      while (!stop.done) {
        const reserved = await leases.reserve(userId, REQUEST);
        if (!reserved.ok) {
          refused += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        served += 1;
        const admission: Admission = { mode: 'credits', userId, reservedNanos: REQUEST, lease: reserved.lease };
        await new Promise((resolve) => setTimeout(resolve, 2)); // the upstream call
        returnLeasedHold(admission, COST);
        await settleGenerations(db(), [{ admission, record: creditsGenerationRecord(userId, COST) }]);
      }
      return { served, refused };
    })();
  }

  async function leasedUser(instances: CreditLeases[]): Promise<{ id: string; email: string }> {
    const user = await insertTestUser(db());
    await grantCredits(db(), { userId: user.id, amountNanos: BALANCE });
    for (const leases of instances) {
      const reserved = await leases.reserve(user.id, REQUEST);
      returnLeasedHold(
        { mode: 'credits', userId: user.id, reservedNanos: REQUEST, lease: reserved.ok ? reserved.lease : undefined },
        0n,
      );
    }
    const account = await getCreditAccount(db(), user.id);
    // The precondition that makes this a test of recalls: the leases hold more than the removal leaves unreserved.
    expect(account.balanceNanos - account.reservedNanos).toBeLessThan(900_000n);
    return user;
  }

  async function expectBooks(userId: string, removed: bigint): Promise<void> {
    const account = await getCreditAccount(db(), userId);
    const ledger = await listLedger(db(), userId, 10_000);
    const debited = ledger.reduce((sum, row) => (row.kind === 'debit' ? sum - row.amount_nanos : sum), 0n);
    expect(account.reservedNanos).toBe(0n);
    expect(account.balanceNanos).toBe(BALANCE - removed - debited);
    expect(account.balanceNanos).toBeGreaterThanOrEqual(0n);
    expect(ledger.filter((row) => row.kind === 'adjustment').map((row) => row.amount_nanos)).toEqual(
      removed > 0n ? [-removed] : [],
    );
  }

  for (const via of ['a gateway that hears the answers', 'a process that cannot hear them (the CLI)'] as const) {
    it(`removes credit that two instances lease while the user keeps sending requests, through ${via}`, async () => {
      const instances = await twoInstances();
      const user = await leasedUser(instances);
      const stop = { done: false };
      const flows = instances.map((leases) => traffic(leases, user.id, stop));
      try {
        await new Promise((resolve) => setTimeout(resolve, 50)); // requests are flowing on both
        const recalls = via === 'a gateway that hears the answers' ? instances[0].recalls : undefined;
        const result = await adjustCredits(
          { db: db(), recalls },
          { userId: user.id, amountNanos: -900_000n, note: 'refund' },
        );
        expect(result.balanceNanos).toBeLessThanOrEqual(BALANCE - 900_000n);
        await new Promise((resolve) => setTimeout(resolve, 50)); // and keep flowing on what is left
      } finally {
        stop.done = true;
      }
      const counts = await Promise.all(flows);
      expect(counts.every((c) => c.served > 0)).toBe(true);
      await Promise.all(instances.map((leases) => leases.close()));
      await expectBooks(user.id, 900_000n);
    });
  }

  it('refuses at once, changing nothing, a removal larger than the balance', async () => {
    const instances = await twoInstances();
    const user = await leasedUser(instances);
    await expect(
      adjustCredits({ db: db(), recalls: instances[0].recalls }, { userId: user.id, amountNanos: -(BALANCE + 1n) }),
    ).rejects.toBeInstanceOf(InsufficientCreditsError);
    await Promise.all(instances.map((leases) => leases.close()));
    await expectBooks(user.id, 0n);
  });

  it('refuses a removal of credit that a request in flight holds, after recalling the rest', async () => {
    const instances = await twoInstances();
    const user = await leasedUser(instances);
    const inFlight = await instances[1].reserve(user.id, 600_000n);
    expect(inFlight.ok).toBe(true);
    const removal = adjustCredits(
      { db: db(), recalls: instances[0].recalls, timeoutMs: 300 },
      { userId: user.id, amountNanos: -500_000n },
    );
    await expect(removal).rejects.toBeInstanceOf(InsufficientCreditsError);
    // What no request holds was recalled: 400 000 can go.
    await adjustCredits({ db: db(), recalls: instances[0].recalls }, { userId: user.id, amountNanos: -400_000n });
    returnLeasedHold(
      { mode: 'credits', userId: user.id, reservedNanos: 600_000n, lease: inFlight.ok ? inFlight.lease : undefined },
      0n,
    );
    await Promise.all(instances.map((leases) => leases.close()));
    await expectBooks(user.id, 400_000n);
  });

  if (backend === 'postgres') {
    it('`modelgate credits add --usd -N` succeeds while two instances lease the credit', async () => {
      const instances = await twoInstances();
      const user = await leasedUser(instances);
      const out: string[] = [];
      const code = await runCli(
        ['credits', 'add', '--email', user.email, '--usd', '-0.0009'],
        { DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
        { out: (l) => out.push(l), err: (l) => out.push(l) },
      );
      expect(code, out.join('\n')).toBe(0);
      await Promise.all(instances.map((leases) => leases.close()));
      await expectBooks(user.id, 900_000n);
    });
  }
});
