// `make bench-history`: read times of GET /key, GET /api-keys, GET /activity and GET /admin/usage (their service
// functions, on PostgreSQL) as the settled history grows to ≥ 1M generation records, 90% of them on one key, spread
// over 30 days; beside them, the record-summing queries those reads ran before the running totals (migration 0012);
// then the storage per request of each table and the time to prune the oldest third. Writes
// bench/results/history-reads.{md,json}. Usage:
//   node dist/bench/history-reads.js [total records, default 1000000]
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Db } from '../src/db/database.js';
import { issueApiKey } from '../src/auth/issue-credentials.js';
import { findOrCreateUserByEmail } from '../src/repositories/users.js';
import { getCreditAccount } from '../src/repositories/credits.js';
import { describeKey, listKeys } from '../src/services/api-keys.js';
import { usageReport } from '../src/services/usage-report.js';
import { listDailyUsage, activityWindowStart } from '../src/repositories/activity.js';
import { pruneGenerations } from '../src/services/generation-retention.js';
import { newId } from '../src/auth/secrets.js';
import { createScratchDatabase } from './lib/scratch-database.js';
import { appendHistory, measureStorage, type HistoryShape, type TableStorage } from './lib/history-fixture.js';
import { keyUsageFromRecords, usageByKeyFromRecords } from './lib/record-sums.js';
import { median, percentile, round } from './lib/stats.js';

const DAY_MS = 86_400_000;
const HISTORY_DAYS = 30;

interface Timing {
  read: string;
  records: number;
  medianMs: number;
  p90Ms: number;
}

async function time(read: string, records: number, runs: number, fn: () => Promise<unknown>): Promise<Timing> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return { read, records, medianMs: round(median(samples)!, 2), p90Ms: round(percentile(samples, 90)!, 2) };
}

async function provision(db: Db, now: Date): Promise<HistoryShape> {
  const user = async (email: string) => (await findOrCreateUserByEmail(db, email, () => newId('usr_'))).id;
  const hotUserId = await user('agent@bench.test');
  const hot = await issueApiKey(db, { organizationId: hotUserId, memberUserId: hotUserId, name: 'agent' });
  // A monthly limit: GET /key then also reads the key's spend row of this month.
  await db
    .updateTable('api_keys')
    .set({ credit_limit_nanos: 10n ** 15n, limit_reset: 'monthly' })
    .where('id', '=', hot.row.id)
    .execute();
  for (const name of ['ci', 'laptop'])
    await issueApiKey(db, { organizationId: hotUserId, memberUserId: hotUserId, name });
  const otherUserIds: string[] = [];
  const otherKeyIds: string[] = [];
  for (let i = 0; i < 50; i++) {
    const id = await user(`user${i}@bench.test`);
    otherUserIds.push(id);
    otherKeyIds.push((await issueApiKey(db, { organizationId: id, memberUserId: id, name: 'k' })).row.id);
  }
  const models = [
    'openai/gpt-5.4-mini',
    'anthropic/claude-sonnet-4.5',
    'deepseek/deepseek-chat',
    'google/gemini-2.5-flash',
  ];
  return { hotUserId, hotKeyId: hot.row.id, otherUserIds, otherKeyIds, models, now, days: HISTORY_DAYS };
}

async function measureReads(db: Db, shape: HistoryShape, records: number): Promise<Timing[]> {
  const { now, hotUserId, hotKeyId } = shape;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const twoWholeDays = { from: new Date(today - 2 * DAY_MS), to: new Date(today) };
  const lastTwoDays = { from: new Date(now.getTime() - 2 * DAY_MS), to: now };
  const month = { from: new Date(today - 30 * DAY_MS), to: new Date(today + DAY_MS) };
  const runs = 15;
  const slowRuns = 3;
  return [
    await time('GET /key (describeKey + credit account)', records, runs, () =>
      Promise.all([describeKey(db, hotUserId, hotKeyId, now), getCreditAccount(db, hotUserId)]),
    ),
    await time('GET /api-keys (listKeys, 3 keys)', records, runs, () => listKeys(db, hotUserId, now)),
    await time('GET /activity?days=30', records, runs, () =>
      listDailyUsage(db, { userId: hotUserId, since: activityWindowStart(now, 30) }),
    ),
    await time('GET /admin/usage, 2 whole UTC days, by key', records, runs, () =>
      usageReport(db, { ...twoWholeDays, groupBy: 'key' }),
    ),
    await time('GET /admin/usage, 30 whole UTC days, by model', records, runs, () =>
      usageReport(db, { ...month, groupBy: 'model' }),
    ),
    await time('GET /admin/usage, the last 48 h (bounds inside days), by key', records, runs, () =>
      usageReport(db, { ...lastTwoDays, groupBy: 'key' }),
    ),
    await time('before: key usage summed from records', records, slowRuns, () =>
      keyUsageFromRecords(db, [hotKeyId], now),
    ),
    await time('before: usage report, 2 whole days, from records (created_at index)', records, slowRuns, () =>
      usageByKeyFromRecords(db, twoWholeDays.from, twoWholeDays.to),
    ),
  ];
}

function renderMarkdown(
  total: number,
  timings: Timing[],
  storage: TableStorage[],
  prune: { deleted: number; seconds: number; after: Timing[] },
): string {
  const checkpoints = [...new Set(timings.map((t) => t.records))];
  const reads = [...new Set(timings.map((t) => t.read))];
  const cell = (read: string, records: number) => {
    const t = timings.find((x) => x.read === read && x.records === records);
    return t ? `${t.medianMs} (${t.p90Ms})` : '';
  };
  const lines = [
    '# Modelgate: reads as history grows',
    '',
    `\`make bench-history\`: ${total.toLocaleString('en-US')} generation records (and their ledger debits) inserted with generate_series into PostgreSQL,`,
    `90% on one key, in steps that each cover the last ${HISTORY_DAYS} days (denser history, same month); each read timed 15 times`,
    '(the "before" rows 3 times) after one warm-up run; the "before" rows are the record-summing queries the reads ran until',
    "the running totals (on today's indexes). The machine is shared: p90s are noisy.",
    'Milliseconds, median (p90), through the service functions the handlers call (no HTTP), on PostgreSQL.',
    '',
    `| read | ${checkpoints.map((c) => `${c.toLocaleString('en-US')} records`).join(' | ')} |`,
    `|---|${checkpoints.map(() => '---:').join('|')}|`,
    ...reads.map((read) => `| ${read} | ${checkpoints.map((c) => cell(read, c)).join(' | ')} |`),
    '',
    `Pruning the records older than 20 days: ${prune.deleted.toLocaleString('en-US')} deleted in ${prune.seconds} s; the reads after it:`,
    '',
    '| read | after pruning |',
    '|---|---:|',
    ...prune.after.map((t) => `| ${t.read} | ${t.medianMs} (${t.p90Ms}) |`),
    '',
    '## Storage per row (before pruning)',
    '',
    '| table | rows | tuple bytes (avg) | bytes per row with indexes | total MB |',
    '|---|---:|---:|---:|---:|',
    ...storage.map(
      (s) =>
        `| ${s.table} | ${s.rows.toLocaleString('en-US')} | ${s.tupleBytes} | ${s.totalBytesPerRow} | ${s.totalMegabytes} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 1_000_000);
  if (!Number.isInteger(total) || total < 1000)
    throw new Error('usage: history-reads.js [total records, at least 1000]');
  const repoRoot = process.env.BENCH_REPO_ROOT ?? process.cwd();
  const scratch = await createScratchDatabase(process.env.BENCH_PG_SOCKET_DIR ?? '/var/run/postgresql');
  const { db, close } = await openDatabase({ databaseUrl: scratch.url, maxConnections: 4 });
  const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);
  try {
    await migrateToLatest(db);
    const shape = await provision(db, new Date());
    const timings: Timing[] = [];
    let inserted = 0;
    for (const checkpoint of [Math.round(total / 100), Math.round(total / 4), total]) {
      const started = performance.now();
      await appendHistory(db, shape, { from: inserted, to: checkpoint });
      log(
        `inserted ${(checkpoint - inserted).toLocaleString('en-US')} records in ${round((performance.now() - started) / 1000, 1)} s`,
      );
      inserted = checkpoint;
      timings.push(...(await measureReads(db, shape, inserted)));
      log(`measured the reads at ${inserted.toLocaleString('en-US')} records`);
    }
    const storage = await measureStorage(db, ['generations', 'credit_ledger', 'usage_daily', 'usage_key_totals']);
    const started = performance.now();
    const pruned = await pruneGenerations(db, { days: 20, now: shape.now });
    const seconds = round((performance.now() - started) / 1000, 1);
    const after = (await measureReads(db, shape, inserted - pruned.deleted)).filter(
      (t) => !t.read.startsWith('before'),
    );
    const markdown = renderMarkdown(total, timings, storage, { deleted: pruned.deleted, seconds, after });
    const resultsDir = process.env.BENCH_RESULTS_DIR ?? path.join(repoRoot, 'bench/results');
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'history-reads.md'), markdown);
    writeFileSync(
      path.join(resultsDir, 'history-reads.json'),
      `${JSON.stringify({ total, timings, storage, prune: { deleted: pruned.deleted, seconds, after } }, null, 2)}\n`,
    );
    console.log(markdown);
  } finally {
    await close();
    await scratch.drop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
