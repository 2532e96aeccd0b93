// A crash loses no bill: `modelgate serve` killed with SIGKILL under load, six times, and started again each time,
// on PostgreSQL and on the embedded default. An answer goes out only once its settlement is committed, so every answer
// a client read (a JSON body's usage.cost, a stream's usage chunk) has its record with that cost, whenever the process
// died; the usage totals and the ledger equal the records. The only records no client read are those of requests in
// flight at the kill (committed, then cut before their last bytes): the provider answered them and bills them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import { openCommandDatabase } from '../../src/db/data-folder/open-data-folder.js';
import type { OpenedDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { provisionAccount, readBooks, sumOf, toldCosts, unbilled } from '../helpers/billing-books.js';
import { pricedReply, runChatLoad, type ChatOutcome } from '../helpers/chat-load.js';
import { describeWithPostgres } from '../helpers/databases.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { seedMigratedDataFolder } from '../helpers/pglite-snapshots.js';
import { createScratchDatabase, testDatabaseUrl, type ScratchDatabase } from '../helpers/postgres-server.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

const KILLS = 6;
const CLIENTS = 8;

interface Backend {
  /** The gateway's database setting. */
  env: Record<string, string>;
  open(): Promise<OpenedDatabase>;
}

/** Kills the gateway under load `KILLS` times; resolves with every outcome and how many requests each kill cut. */
async function killUnderLoad(
  backend: Backend,
  work: string,
  key: string,
): Promise<{ outcomes: ChatOutcome[]; cut: number }> {
  const upstream = await new MockUpstream().start();
  upstream.always((request) => pricedReply(request, 5));
  const env = {
    ...backend.env,
    MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
    OPENAI_API_KEY: 'sk-up',
    OPENAI_BASE_URL: `${upstream.url}/v1`,
  };
  const outcomes: ChatOutcome[] = [];
  let cut = 0;
  try {
    for (let round = 0; round < KILLS; round++) {
      const gateway: ServeProcess = await startServe({ env, logFile: path.join(work, `gateway-${round}.log`) });
      let stop = false;
      // Killed once this run's clients have read a number of answers that differs per run: mid-load, however fast
      // the machine is.
      const killAfter = 10 + 3 * round;
      let answered = 0;
      let killNow!: () => void;
      const enough = new Promise<void>((resolve) => (killNow = resolve));
      const load = runChatLoad({
        url: () => gateway.url,
        key,
        model: 'openai/gpt-test',
        clients: CLIENTS,
        done: () => stop,
        onOutcome: (outcome) => {
          if (outcome.costNanos !== undefined && ++answered >= killAfter) killNow();
        },
      });
      await enough;
      gateway.child.kill('SIGKILL');
      await gateway.exited;
      stop = true;
      const round_ = await load;
      cut += round_.filter((o) => o.transportError !== undefined).length;
      outcomes.push(...round_);
    }
  } finally {
    await upstream.close();
  }
  return { outcomes, cut };
}

async function checkBooks(backend: Backend, userId: string, outcomes: ChatOutcome[], cut: number): Promise<void> {
  const told = toldCosts(outcomes);
  // Enough answers read in every run that a lost one would show.
  expect(told.size).toBeGreaterThanOrEqual(KILLS * 10);
  const opened = await backend.open();
  try {
    const books = await readBooks(opened.db, userId);
    expect(unbilled(told, books)).toEqual([]);
    const untold = [...books.records.keys()].filter((id) => !told.has(id));
    expect(untold.length).toBeLessThanOrEqual(cut);
    expect(books.recordedNanos).toBe(sumOf(told.values()) + sumOf(untold.map((id) => books.records.get(id)!)));
    expect(books.usageNanos).toBe(books.recordedNanos);
    expect(books.debitedNanos).toBe(books.recordedNanos);
    expect(books.balanceChangeNanos).toBe(-books.recordedNanos);
  } finally {
    await opened.close();
  }
}

describeWithPostgres('settlements across gateway crashes [postgres]', () => {
  let scratch: ScratchDatabase | undefined;
  const work = mkdtempSync(path.join(tmpdir(), 'modelgate-crash-pg-'));
  afterAll(async () => {
    await scratch?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it('bills every answer a client read, whenever the process is killed', async () => {
    scratch = await createScratchDatabase(testDatabaseUrl());
    const backend: Backend = {
      env: { DATABASE_URL: scratch.url },
      open: () => openDatabase({ databaseUrl: scratch!.url }),
    };
    const setup = await backend.open();
    let account: Awaited<ReturnType<typeof provisionAccount>>;
    try {
      await migrateToLatest(setup.db);
      account = await provisionAccount(setup.db);
    } finally {
      await setup.close();
    }
    const { outcomes, cut } = await killUnderLoad(backend, work, account.key);
    await checkBooks(backend, account.userId, outcomes, cut);
  }, 300_000);
});

describe('settlements across gateway crashes [embedded]', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'modelgate-crash-embedded-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('bills every answer a client read, whenever the process is killed', async () => {
    const dataDir = path.join(work, 'data');
    // Seeded as a first start leaves it (initdb, migrations): the kills and restarts are what this test is about.
    await seedMigratedDataFolder(dataDir);
    // The command path: it takes over the lock each killed gateway left behind.
    const backend: Backend = { env: { MODELGATE_DATA_DIR: dataDir }, open: () => openCommandDatabase({ dataDir }) };
    const setup = await backend.open();
    let account: Awaited<ReturnType<typeof provisionAccount>>;
    try {
      await migrateToLatest(setup.db);
      account = await provisionAccount(setup.db);
    } finally {
      await setup.close();
    }
    const { outcomes, cut } = await killUnderLoad(backend, work, account.key);
    await checkBooks(backend, account.userId, outcomes, cut);
  }, 300_000);
});
