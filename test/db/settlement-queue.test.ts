// The settlement queue (step 7, awaited before an answer's last bytes): group commit (a settlement is written at
// once when no batch is being written; those that arrive meanwhile share the next statement), a database that is away
// waited for and written to once it is back (nothing lost, nothing twice), a stop that does not wait forever, and one
// bad record that cannot hold back the others of its batch.
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { expect, it } from 'vitest';
import { SettlementQueue } from '../../src/billing/settlement-queue.js';
import type { Admission } from '../../src/billing/admission.js';
import { DatabaseUnavailableError } from '../../src/db/database-unavailable.js';
import type { Db } from '../../src/db/database.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import { createLogger } from '../../src/logger.js';
import { getCreditAccount, grantCredits, reserveCredits } from '../../src/repositories/credits.js';
import { describeEachDatabase, insertTestUser } from '../helpers/databases.js';

/**
 * Watches the settlement statements a database runs: counts them, and can fail the next ones as a database that is
 * away fails them, before they run (`refuse`) or after they committed, as a reply lost with its connection (`lose`).
 */
class SettlementStatements implements KyselyPlugin {
  count = 0;
  refuse = 0;
  lose = 0;
  /** Refusals that follow a lost reply (the database went away with it). */
  refuseAfterLoss = 0;
  private readonly settling = new WeakSet<object>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (!JSON.stringify(node).includes('settle_generations')) return node;
    this.count += 1;
    if (this.refuse > 0) {
      this.refuse -= 1;
      throw new DatabaseUnavailableError(new Error('connect ECONNREFUSED'));
    }
    this.settling.add(queryId);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.settling.has(queryId) && this.lose > 0) {
      this.lose -= 1;
      this.refuse = this.refuseAfterLoss;
      throw new DatabaseUnavailableError(new Error('Connection terminated unexpectedly'));
    }
    return result;
  }
}

function logLines(): { lines: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  return { lines, logger: createLogger('info', { write: (line: string) => void lines.push(line) }) };
}

const free = (userId: string): Admission => ({ mode: 'free', userId, reservedNanos: 0n });
const ids = async (db: Db, userId: string) =>
  (await db.selectFrom('generations').select('id').where('user_id', '=', userId).execute()).map((row) => row.id).sort();

describeEachDatabase('settlement queue', ({ db }) => {
  it('writes a settlement at once and resolves when it is committed', async () => {
    const user = await insertTestUser(db());
    await grantCredits(db(), { userId: user.id, amountNanos: 1_000n });
    const queue = new SettlementQueue(db(), createLogger('silent'));
    const record = creditsGenerationRecord(user.id, 10n);
    expect((await reserveCredits(db(), { userId: user.id, amountNanos: 100n })).ok).toBe(true);
    await queue.settle({ mode: 'credits', userId: user.id, reservedNanos: 100n }, record);
    expect(await ids(db(), user.id)).toEqual([record.id]);
    expect(await getCreditAccount(db(), user.id)).toMatchObject({ balanceNanos: 990n, reservedNanos: 0n });
  });

  it('groups the settlements that arrive while a batch is being written into the next statement', async () => {
    const user = await insertTestUser(db());
    const statements = new SettlementStatements();
    const queue = new SettlementQueue(db().withPlugin(statements), createLogger('silent'));
    const first = queue.settle(free(user.id), creditsGenerationRecord(user.id, 0n));
    // The queue took the first into a batch on its turn of the event loop and is writing it now.
    await new Promise((resolve) => setImmediate(resolve));
    const later = Array.from({ length: 5 }, () => creditsGenerationRecord(user.id, 0n));
    const written = later.map((record) => queue.settle(free(user.id), record));
    expect(queue.size).toBe(5);
    await Promise.all([first, ...written]);
    expect(statements.count).toBe(2);
    expect((await ids(db(), user.id)).length).toBe(6);
  });

  it('waits for a database that is away and writes once it is back: a commit whose reply was lost is not counted twice', async () => {
    const user = await insertTestUser(db());
    await grantCredits(db(), { userId: user.id, amountNanos: 1_000n });
    const statements = new SettlementStatements();
    // The first statement commits and its reply is lost with the connection; then the database refuses connections
    // for three attempts.
    statements.lose = 1;
    statements.refuseAfterLoss = 3;
    const { lines, logger } = logLines();
    const queue = new SettlementQueue(db().withPlugin(statements), logger);
    const records = [creditsGenerationRecord(user.id, 10n), creditsGenerationRecord(user.id, 20n)];
    for (const _ of records) expect((await reserveCredits(db(), { userId: user.id, amountNanos: 100n })).ok).toBe(true);
    await Promise.all(
      records.map((record) => queue.settle({ mode: 'credits', userId: user.id, reservedNanos: 100n }, record)),
    );
    expect(statements.count).toBe(5);
    expect(await ids(db(), user.id)).toEqual(records.map((r) => r.id).sort());
    expect(await getCreditAccount(db(), user.id)).toMatchObject({ balanceNanos: 970n, reservedNanos: 0n });
    const debits = await db()
      .selectFrom('credit_ledger')
      .select('amount_nanos')
      .where('user_id', '=', user.id)
      .where('kind', '=', 'debit')
      .execute();
    expect(debits.map((d) => d.amount_nanos).sort((a, b) => (a < b ? -1 : 1))).toEqual([-20n, -10n]);
    expect(lines.some((line) => line.includes('database unavailable: settlements wait for it'))).toBe(true);
    expect(lines.some((line) => line.includes('database back: waiting settlements written'))).toBe(true);
    expect(lines.some((line) => line.includes('could not settle generation'))).toBe(false);
  });

  it("gives up waiting at drain's deadline and logs each record whole, for replay", async () => {
    const user = await insertTestUser(db());
    const statements = new SettlementStatements();
    statements.refuse = Number.POSITIVE_INFINITY;
    const { lines, logger } = logLines();
    const queue = new SettlementQueue(db().withPlugin(statements), logger);
    const record = creditsGenerationRecord(user.id, 0n);
    const settled = queue.settle(free(user.id), record);
    await queue.drain(200);
    await settled;
    expect(await ids(db(), user.id)).toEqual([]);
    expect(lines.some((line) => line.includes('could not settle generation') && line.includes(record.id))).toBe(true);
  });

  it('settles the good records of a batch that one bad record made fail, and logs the bad one', async () => {
    const user = await insertTestUser(db());
    const { lines, logger } = logLines();
    const queue = new SettlementQueue(db(), logger);
    const good = creditsGenerationRecord(user.id, 0n);
    // A status the table's CHECK refuses: the whole multi-row insert fails with it.
    const bad = { ...creditsGenerationRecord(user.id, 0n), status: 'bogus' as never };
    await Promise.all([queue.settle(free(user.id), good), queue.settle(free(user.id), bad)]);
    const written = await db().selectFrom('generations').select('id').where('id', 'in', [good.id, bad.id]).execute();
    expect(written.map((w) => w.id)).toEqual([good.id]);
    expect(lines.some((line) => line.includes('could not settle generation') && line.includes(bad.id))).toBe(true);
  });
});
