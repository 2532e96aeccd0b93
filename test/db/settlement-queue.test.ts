// The settlement queue (step 7 after the response): batches within a window, drains at once on demand, and one bad
// record cannot hold back the others of its batch.
import { expect, it } from 'vitest';
import { SettlementQueue } from '../../src/billing/settlement-queue.js';
import type { Admission } from '../../src/billing/accounting.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import { createLogger } from '../../src/logger.js';
import { getCreditAccount, grantCredits, reserveCredits } from '../../src/repositories/credits.js';
import { describeEachDatabase, insertTestUser } from '../helpers/databases.js';

describeEachDatabase('settlement queue', ({ db }) => {
  it('drains an open batch window at once and writes every queued settlement', async () => {
    const user = await insertTestUser(db());
    await grantCredits(db(), { userId: user.id, amountNanos: 1_000n });
    // A window far longer than the test timeout: only drain() can end it.
    const queue = new SettlementQueue(db(), createLogger('silent'), 3_600_000);
    const records = [creditsGenerationRecord(user.id, 10n), creditsGenerationRecord(user.id, 20n), creditsGenerationRecord(user.id, 30n)];
    for (const r of records) {
      expect((await reserveCredits(db(), { userId: user.id, amountNanos: 100n })).ok).toBe(true);
      void queue.settle({ mode: 'credits', userId: user.id, reservedNanos: 100n }, r);
    }
    expect(queue.size).toBe(3);
    await queue.drain();
    expect(queue.size).toBe(0);
    const written = await db().selectFrom('generations').select('id').where('user_id', '=', user.id).execute();
    expect(written.map((w) => w.id).sort()).toEqual(records.map((r) => r.id).sort());
    expect(await getCreditAccount(db(), user.id)).toMatchObject({ balanceNanos: 940n, reservedNanos: 0n });
  });

  it('makes every batch wait for company, also one queued while the previous batch was being written', async () => {
    const user = await insertTestUser(db());
    const queue = new SettlementQueue(db(), createLogger('silent'), 3_600_000);
    const free: Admission = { mode: 'free', userId: user.id, reservedNanos: 0n };
    const first = creditsGenerationRecord(user.id, 0n);
    const second = creditsGenerationRecord(user.id, 0n);
    void queue.settle(free, first);
    const firstWritten = queue.flushed(); // closes the window...
    await new Promise((resolve) => setImmediate(resolve)); // ...so the first batch is taken and being written...
    void queue.settle(free, second); // ...when the second settlement arrives
    await firstWritten;
    await db().selectFrom('users').select('id').limit(1).execute(); // a round trip: time to start another batch
    expect(queue.size).toBe(1);
    const ids = async () => (await db().selectFrom('generations').select('id').where('user_id', '=', user.id).execute()).map((row) => row.id);
    expect(await ids()).toEqual([first.id]);
    await queue.flushed();
    expect((await ids()).sort()).toEqual([first.id, second.id].sort());
  });

  it('settles the good records of a batch that one bad record made fail, and logs the bad one', async () => {
    const user = await insertTestUser(db());
    const lines: string[] = [];
    const logger = createLogger('warn', { write: (line: string) => void lines.push(line) });
    const queue = new SettlementQueue(db(), logger, 0);
    const free: Admission = { mode: 'free', userId: user.id, reservedNanos: 0n };
    const good = creditsGenerationRecord(user.id, 0n);
    // A status the table's CHECK refuses: the whole multi-row insert fails with it.
    const bad = { ...creditsGenerationRecord(user.id, 0n), status: 'bogus' as never };
    await Promise.all([queue.settle(free, good), queue.settle(free, bad)]);
    const written = await db().selectFrom('generations').select('id').where('id', 'in', [good.id, bad.id]).execute();
    expect(written.map((w) => w.id)).toEqual([good.id]);
    expect(lines.some((line) => line.includes('could not settle generation') && line.includes(bad.id))).toBe(true);
  });
});
