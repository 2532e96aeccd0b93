// `make bench-load` (also the last step of `make bench`): a thousand slow streams at once through one gateway.
// The streams (24 content chunks 100 ms apart by default) go to the bench mock upstream: first
// straight to it (the floor), then through Modelgate on PostgreSQL with real metering, `rounds` times, then through
// a fresh gateway with MODELGATE_UPSTREAM_CONCURRENCY=256 (the old pool's cap, now a queue /metrics shows) twice. Fifty accounts with two
// keys each share the streams. Reports time to first chunk, stream length, wall time, the gateway's peak RSS and
// CPU, and whether every account was charged exactly what its streams' usage chunks reported (its /credits
// total_usage and its ledger debits). Writes bench/results/load.{md,json}.
// Usage: node dist/bench/load-streams.js [streams, default 1000] [gateway rounds, default 3]
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessGroup } from './lib/processes.js';
import { accountingSummary, createScratchDatabase } from './lib/scratch-database.js';
import { gatewayEnv, startMock, startModelgate, type BenchPaths, type RunningSystem } from './lib/systems.js';
import { GATEWAY_MODEL, UPSTREAM_MODEL } from './lib/requests.js';
import { slowMarker } from './mock-replies.js';
import { cpuMs, rssBytes } from './lib/proc-stats.js';
import { runStreams, type StreamRequest } from './lib/stream-client.js';
import { countGenerations, creditsUsage, ledgerDebits, provisionAccounts } from './lib/load-accounts.js';
import {
  addCosts,
  compareAccounts,
  renderLoadReport,
  reportedCosts,
  summarizeRound,
  type LoadResult,
  type RoundResult,
} from './lib/load-streams-report.js';

const ACCOUNTS = 50;
const KEYS_PER_ACCOUNT = 2;
const STREAM = { chunks: 24, everyMs: 100 };
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(process.env.BENCH_REPO_ROOT ?? process.cwd());
const runDir = path.join(path.resolve(process.env.BENCH_RUN_DIR ?? path.join(repoRoot, 'bench/.run')), 'load');
const paths: BenchPaths = { repoRoot, distDir, runDir };
const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);

function body(model: string): string {
  return JSON.stringify({
    model,
    max_tokens: 64,
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'user', content: `Tell a long story. ${slowMarker(STREAM.chunks, STREAM.everyMs)}` }],
  });
}

/** Samples the gateway's RSS and its upstream queue (/metrics) while a round runs. */
function watch(gateway: RunningSystem, baseUrl: string) {
  const startRss = rssBytes(gateway.pid) ?? 0;
  let peakRss = startRss;
  let maxQueued = 0;
  const rss = setInterval(() => (peakRss = Math.max(peakRss, rssBytes(gateway.pid) ?? 0)), 100);
  const scrape = setInterval(() => {
    void fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      .then((res) => res.text())
      .then((text) => {
        for (const [, value] of text.matchAll(/^modelgate_upstream_requests_queued\{[^}]*\} (\d+)/gm))
          maxQueued = Math.max(maxQueued, Number(value));
      })
      .catch(() => undefined);
  }, 250);
  const cpuBefore = cpuMs(gateway.pid);
  return () => {
    clearInterval(rss);
    clearInterval(scrape);
    return {
      startRssMb: Math.round(startRss / 2 ** 20),
      peakRssMb: Math.round(peakRss / 2 ** 20),
      cpuSeconds: Math.round(cpuMs(gateway.pid) - cpuBefore) / 1000,
      maxQueued,
    };
  };
}

async function main(): Promise<void> {
  const streams = Number(process.argv[2] ?? 1000);
  const gatewayRounds = Number(process.argv[3] ?? 3);
  if (!(streams > 0) || !(gatewayRounds > 0)) throw new Error('usage: load-streams.js [streams] [gateway rounds]');
  mkdirSync(runDir, { recursive: true });
  const group = new ProcessGroup();
  const database = await createScratchDatabase(process.env.BENCH_PG_SOCKET_DIR ?? '/var/run/postgresql');
  const startedAt = new Date().toISOString();
  const rounds: RoundResult[] = [];
  const reported = new Map<string, bigint>();
  let gatewayStreams = 0;
  try {
    const mock = await startMock(group, paths);
    log(`provisioning ${ACCOUNTS} accounts × ${KEYS_PER_ACCOUNT} keys in ${database.name}`);
    const accounts = await provisionAccounts(database.url, ACCOUNTS, KEYS_PER_ACCOUNT, 1000);

    const direct: StreamRequest = { url: mock.url, keys: ['bench'], body: body(UPSTREAM_MODEL) };
    const floor = await runStreams(direct, streams);
    rounds.push(summarizeRound('mock upstream alone', 1, floor.records, floor.wallMs));
    log(`mock alone: first chunk p99 ${rounds.at(-1)!.firstChunkMs.p99} ms, all done ${rounds.at(-1)!.wallMs} ms`);

    const variants = [
      { name: 'modelgate', rounds: gatewayRounds, env: {} },
      {
        name: 'modelgate, cap 256 per origin',
        rounds: 2,
        env: { MODELGATE_UPSTREAM_CONCURRENCY: '256', MODELGATE_UPSTREAM_QUEUE_TIMEOUT_MS: '60000' },
      },
    ];
    let gateway: RunningSystem | undefined;
    let baseUrl = '';
    for (const variant of variants) {
      if (gateway) await group.stop(gateway.child, 30_000);
      const env = {
        ...gatewayEnv(paths, database.url, mock.baseUrl),
        MODELGATE_METRICS_TOKEN: METRICS_TOKEN,
        ...variant.env,
      };
      gateway = await startModelgate(group, paths, env, '');
      baseUrl = gateway.url.replace('/api/v1/chat/completions', '');
      const request: StreamRequest = { url: gateway.url, keys: accounts.keys, body: body(GATEWAY_MODEL) };
      for (let r = 1; r <= variant.rounds; r++) {
        const stop = watch(gateway, baseUrl);
        const { records, wallMs } = await runStreams(request, streams);
        const round = summarizeRound(variant.name, r, records, wallMs, stop());
        rounds.push(round);
        addCosts(reported, reportedCosts(records, accounts.keyOwner));
        gatewayStreams += streams;
        log(
          `${variant.name} round ${r}: ${round.completed}/${streams} completed, first chunk p50/p99 ${round.firstChunkMs.p50}/${round.firstChunkMs.p99} ms, ` +
            `all done ${round.wallMs} ms, peak RSS ${round.peakRssMb} MB, most queued ${round.maxQueued}`,
        );
        await sleep(1000);
      }
    }

    // The books: once every generation is recorded, each account's /credits, then (the gateway stopped, its credit
    // leases given back) the ledger.
    const deadline = Date.now() + 60_000;
    while ((await countGenerations(database.url)) < gatewayStreams && Date.now() < deadline) await sleep(250);
    const fromCredits = compareAccounts('/credits total_usage', reported, await creditsUsage(baseUrl, accounts));
    await group.stop(gateway!.child, 30_000);
    const fromLedger = compareAccounts('credit_ledger debits', reported, await ledgerDebits(database.url));
    const accounting = await accountingSummary(database.url);

    const result: LoadResult & { accounting: typeof accounting } = {
      startedAt,
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}`,
      streams,
      stream: STREAM,
      accounts: ACCOUNTS,
      keysPerAccount: KEYS_PER_ACCOUNT,
      rounds,
      checks: [fromCredits, fromLedger],
      accounting,
    };
    const markdown =
      `${renderLoadReport(result)}\nWhole database after the run (every generation settled, nothing reserved, debits = recorded costs): ` +
      `${accounting.consistent ? 'consistent' : '**NOT consistent**'} (${JSON.stringify(accounting.generations)}).\n`;
    const resultsDir = process.env.BENCH_RESULTS_DIR ?? path.join(repoRoot, 'bench/results');
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'load.md'), markdown);
    writeFileSync(path.join(resultsDir, 'load.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(markdown);
    if (fromCredits.mismatches.length > 0 || fromLedger.mismatches.length > 0 || !accounting.consistent)
      process.exitCode = 1;
  } finally {
    await group.stopAll();
    await database.drop();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
