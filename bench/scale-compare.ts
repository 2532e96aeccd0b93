// `make bench-scale`: the cost of observability and the gain of workers, side by side, on PostgreSQL with real
// metering and the mock upstream: Modelgate with metrics (a scrape every second) and tracing (OTLP to a local sink)
// on vs off at c=16, and `serve --workers 2` vs `--workers 1` (both on Redis, per-key limits exercised) at c=64.
// Variants alternate round by round so machine noise spreads over both. Writes bench/results/scale.{md,json}.
// Usage: node dist/bench/scale-compare.js [measure seconds, default 15] [rounds, default 3]
import http from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { LoadGenerator } from './lib/load.js';
import { ProcessGroup, freePort, waitForPort } from './lib/processes.js';
import { chatBody, GATEWAY_MODEL } from './lib/requests.js';
import { accountingSummary, createScratchDatabase } from './lib/scratch-database.js';
import { gatewayEnv, provisionGateway, startMock, type BenchPaths } from './lib/systems.js';
import { median as medianOrUndefined } from './lib/stats.js';
import { SERVE_NODE_OPTIONS } from '../src/cli/serve-node-options.js';

const METRICS_TOKEN = 'bench-metrics-token-0123456789';

interface Variant {
  name: string;
  env: NodeJS.ProcessEnv;
  args: string[];
}

interface Comparison {
  title: string;
  concurrency: number;
  variants: [Variant, Variant];
}

async function main(): Promise<void> {
  const measureSeconds = Number(process.argv[2] ?? 15);
  const rounds = Number(process.argv[3] ?? 3);
  const repoRoot = process.env.BENCH_REPO_ROOT ?? process.cwd();
  const runDir = path.join(repoRoot, 'bench/.run/scale');
  mkdirSync(runDir, { recursive: true });
  const paths: BenchPaths = { repoRoot, distDir: path.join(repoRoot, 'dist'), runDir };
  const group = new ProcessGroup();
  const load = new LoadGenerator(group, paths.distDir, path.join(runDir, 'load-generator.log'));
  const database = await createScratchDatabase(process.env.BENCH_PG_SOCKET_DIR ?? '/var/run/postgresql');
  const sink = await startSpanSink();
  try {
    const mock = await startMock(group, paths);
    const redisPort = await freePort();
    const redis = group.start('redis', 'redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      logFile: path.join(runDir, 'redis.log'),
    });
    await waitForPort(redisPort, redis, 'redis');
    const env = gatewayEnv(paths, database.url, mock.baseUrl);
    const apiKey = await provisionGateway(paths, env);
    const onRedis = { ...env, MODELGATE_REDIS_URL: `redis://127.0.0.1:${redisPort}`, MODELGATE_RATE_LIMIT_RPM: '10000000', MODELGATE_RATE_LIMIT_TPM: '1000000000' };
    const comparisons: Comparison[] = [
      {
        title: 'Metrics and tracing on vs off (json, c=16)',
        concurrency: 16,
        variants: [
          { name: 'off', env, args: [] },
          { name: 'metrics + tracing', env: { ...env, MODELGATE_METRICS_TOKEN: METRICS_TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url }, args: [] },
        ],
      },
      {
        title: 'serve --workers 2 vs 1 (json, c=64, Redis limits)',
        concurrency: 64,
        variants: [
          { name: '--workers 1', env: onRedis, args: ['--workers', '1'] },
          { name: '--workers 2', env: onRedis, args: ['--workers', '2'] },
        ],
      },
    ];
    const results: { title: string; concurrency: number; rows: { name: string; rps: number[]; p99: number[]; non2xx: number }[] }[] = [];
    for (const comparison of comparisons) {
      const rows = comparison.variants.map((variant) => ({ name: variant.name, rps: [] as number[], p99: [] as number[], non2xx: 0 }));
      for (let round = 0; round < rounds; round++) {
        for (const [i, variant] of comparison.variants.entries()) {
          const port = await freePort();
          const logFile = path.join(runDir, `${variant.name.replace(/[^a-z0-9]+/gi, '-')}.log`);
          const entry = path.join(paths.distDir, 'bench/gateway-entry.js');
          const child = group.start('modelgate', process.execPath, [...SERVE_NODE_OPTIONS, entry, ...variant.args], { env: { ...variant.env, PORT: String(port) }, cwd: repoRoot, logFile });
          // Several workers load the app in parallel: on a busy machine that takes a while.
          await waitForPort(port, child, variant.name, 120_000);
          // The port opens with the first worker; the measurement starts once all of them listen.
          const workers = variant.args.includes('--workers') ? Number(variant.args[variant.args.indexOf('--workers') + 1]) : 1;
          if (workers > 1) await waitForLog(logFile, 'modelgate cluster listening', 120_000);
          const scraping = variant.env.MODELGATE_METRICS_TOKEN ? setInterval(() => void scrape(port), 1000) : undefined;
          try {
            const summary = await load.run({
              url: `http://127.0.0.1:${port}/api/v1/chat/completions`,
              headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
              body: chatBody('json', GATEWAY_MODEL),
              connections: comparison.concurrency,
              warmupSeconds: 2,
              measureSeconds,
            });
            rows[i].rps.push(summary.rps);
            rows[i].p99.push(summary.latency.p99);
            rows[i].non2xx += summary.non2xx + summary.errors;
            console.log(`${comparison.title} · ${variant.name} · round ${round + 1}: ${summary.rps.toFixed(0)} req/s, p99 ${summary.latency.p99.toFixed(1)} ms`);
          } finally {
            clearInterval(scraping);
            await group.stop(child, 60_000);
          }
        }
      }
      results.push({ title: comparison.title, concurrency: comparison.concurrency, rows });
    }
    const accounting = await accountingSummary(database.url);
    const markdown = report(results, { measureSeconds, rounds, spansExported: sink.spans(), accountingConsistent: accounting.consistent });
    const resultsDir = process.env.BENCH_RESULTS_DIR ?? path.join(repoRoot, 'bench/results');
    writeFileSync(path.join(resultsDir, 'scale.md'), markdown);
    writeFileSync(path.join(resultsDir, 'scale.json'), `${JSON.stringify({ measureSeconds, rounds, results, accounting }, null, 2)}\n`);
    console.log(markdown);
  } finally {
    await load.close();
    await group.stopAll();
    await sink.close();
    await database.drop();
  }
}

const median = (samples: readonly number[]): number => medianOrUndefined(samples) ?? NaN;

function report(
  results: { title: string; rows: { name: string; rps: number[]; p99: number[]; non2xx: number }[] }[],
  facts: { measureSeconds: number; rounds: number; spansExported: number; accountingConsistent: boolean },
): string {
  const lines = [
    '# Modelgate: observability cost and workers',
    '',
    `${facts.rounds} alternating rounds of ${facts.measureSeconds} s per variant (2 s warm-up), median req/s and p99; mock upstream, PostgreSQL metering.`,
    `OTLP batches received by the sink: ${facts.spansExported}. Accounting consistent after the run: ${facts.accountingConsistent ? 'yes' : 'NO'}.`,
    '',
  ];
  for (const result of results) {
    const [base, other] = result.rows;
    const ratio = median(other.rps) / median(base.rps);
    lines.push(`## ${result.title}`, '', '| variant | req/s (median) | p99 ms (median) | non-2xx + errors |', '|---|---|---|---|');
    for (const row of result.rows) lines.push(`| ${row.name} | ${median(row.rps).toFixed(0)} | ${median(row.p99).toFixed(1)} | ${row.non2xx} |`);
    lines.push('', `${other.name} / ${base.name}: ${(ratio * 100).toFixed(1)} % of the req/s.`, '');
  }
  return `${lines.join('\n')}\n`;
}

async function waitForLog(logFile: string, message: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!readFileSync(logFile, 'utf8').includes(`"msg":"${message}"`)) {
    if (Date.now() > deadline) throw new Error(`no "${message}" in ${logFile} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function scrape(port: number): Promise<void> {
  return new Promise((resolve) => {
    http
      .get(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }, (res) => {
        res.resume();
        res.on('end', resolve);
      })
      .on('error', () => resolve());
  });
}

/** A local OTLP/HTTP endpoint that accepts and counts trace batches (the exporter's cost is measured, not a collector's). */
async function startSpanSink(): Promise<{ url: string; spans: () => number; close: () => Promise<void> }> {
  let batches = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      batches++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => batches,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
