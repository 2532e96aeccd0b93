// A PostgreSQL restart under load is a non-event: `modelgate serve` on a private PostgreSQL server, twelve clients in
// a loop (JSON and streamed chat completions), the server restarted with `pg_ctl restart -m fast` (every connection
// terminated, as in a failover) and then stopped for a few seconds and started again. The gateway stays up; every
// answer is a success or a 503 with Retry-After in the door's error envelope (never a 500, never a stream cut short);
// and the books agree afterwards: every answer a client read has its one record with the cost it was told, and the
// usage totals and the ledger equal the records.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { provisionAccount, readBooks, sumOf, toldCosts, unbilled } from '../helpers/billing-books.js';
import { describeOutcome, pricedReply, runChatLoad } from '../helpers/chat-load.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { privatePostgresUnavailable, startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

const unavailable = privatePostgresUnavailable();
if (unavailable && process.env.CI === 'true')
  throw new Error(`the database restart test needs a private PostgreSQL server: ${unavailable}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(unavailable !== undefined)('a PostgreSQL restart under load', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'modelgate-pg-restart-'));
  let server: PrivatePostgres;
  let upstream: MockUpstream;
  let gateway: ServeProcess;
  let account: { userId: string; key: string };

  beforeAll(async () => {
    server = await startPrivatePostgres();
    const opened = await openDatabase({ databaseUrl: server.url });
    try {
      await migrateToLatest(opened.db);
      account = await provisionAccount(opened.db);
    } finally {
      await opened.close();
    }
    upstream = await new MockUpstream().start();
    upstream.always((request) => pricedReply(request));
    gateway = await startServe({
      env: {
        DATABASE_URL: server.url,
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        OPENAI_API_KEY: 'sk-up',
        OPENAI_BASE_URL: `${upstream.url}/v1`,
        // The clients retry each 503 at once: on a fast run they pass the default 600 requests per minute, and a 429
        // is not what this test is about.
        MODELGATE_RATE_LIMIT_RPM: '0',
      },
      logFile: path.join(work, 'gateway.log'),
    });
  }, 60_000);

  afterAll(async () => {
    if (gateway?.child.exitCode === null) gateway.child.kill('SIGKILL');
    await upstream?.close();
    await server?.destroy();
    rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('keeps the gateway up, answers 503 with Retry-After while the database is away, and loses no bill', async () => {
    let stop = false;
    const load = runChatLoad({
      url: () => gateway.url,
      key: account.key,
      model: 'openai/gpt-test',
      clients: 12,
      done: () => stop,
    });
    await sleep(1_500);
    const restartAt = Date.now();
    await server.restart();
    await sleep(1_500);
    const stopAt = Date.now();
    await server.stop();
    await sleep(3_000);
    await server.start();
    const backAt = Date.now();
    await sleep(2_500);
    stop = true;
    const outcomes = await load;

    // Up, and nothing logged as an error (no 500, no settlement given up).
    const errors = gateway.logLines().filter((line) => Number(line.level) >= 50);
    expect(gateway.child.exitCode, JSON.stringify(errors).slice(0, 3000)).toBeNull();
    expect(errors).toEqual([]);

    // The notification listeners (key changes, credit lease recalls) reconnect after each outage (with backoff: the
    // last retry may come a few seconds after the database is back).
    await vi.waitFor(
      () => {
        const restored = countBy(
          gateway.logLines().filter((line) => line.msg === 'notifications restored'),
          (line) => String(line.channel),
        );
        expect(restored.modelgate_credentials, JSON.stringify(restored)).toBeGreaterThanOrEqual(2);
        expect(restored.modelgate_credit_leases, JSON.stringify(restored)).toBeGreaterThanOrEqual(2);
      },
      { timeout: 20_000, interval: 200 },
    );

    const byStatus = countBy(outcomes, (o) => String(o.status));
    // Answers in progress when the database went away finished; requests were refused while it was away, and served
    // again once it was back.
    const inFlightAt = (at: number) => outcomes.filter((o) => o.status === 200 && o.startedAt < at && o.endedAt > at);
    expect(inFlightAt(restartAt).length, JSON.stringify(byStatus)).toBeGreaterThan(0);
    expect(inFlightAt(stopAt).length).toBeGreaterThan(0);
    expect(byStatus['503'], JSON.stringify(byStatus)).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status === 200 && o.startedAt > backAt).length).toBeGreaterThan(0);
    for (const outcome of outcomes) {
      if (outcome.status === 200) {
        // Admitted: answered in full, streams to their [DONE], with the cost.
        expect(outcome.complete && outcome.transportError === undefined, describeOutcome(outcome)).toBe(true);
        expect(outcome.costNanos).toBeGreaterThan(0n);
      } else {
        expect(outcome.status, describeOutcome(outcome)).toBe(503);
        expect(Number(outcome.retryAfter)).toBeGreaterThan(0);
        expect(outcome.error).toMatchObject({
          error: {
            code: 503,
            message: expect.stringMatching(/database/i),
            metadata: { reason: 'database_unavailable' },
          },
        });
      }
    }

    // A graceful stop writes whatever is still queued; then the books.
    expect(await gateway.stop()).toBe(0);
    const opened: OpenedDatabase = await openDatabase({ databaseUrl: server.url });
    try {
      const books = await readBooks(opened.db, account.userId);
      const told = toldCosts(outcomes);
      expect(told.size).toBe(outcomes.filter((o) => o.status === 200).length);
      expect(unbilled(told, books)).toEqual([]);
      // Nothing recorded that no client was told, nothing twice.
      expect(books.records.size).toBe(told.size);
      expect(books.recordedNanos).toBe(sumOf(told.values()));
      expect(books.usageNanos).toBe(books.recordedNanos);
      expect(books.debitedNanos).toBe(books.recordedNanos);
      expect(books.balanceChangeNanos).toBe(-books.recordedNanos);
    } finally {
      await opened.close();
    }
  }, 90_000);
});

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}
