// The cost of observability and the gain of workers, side by side, on PostgreSQL with real metering and the mock
// upstream: Modelgate with metrics (a scrape every second) and tracing (OTLP to a local sink) on vs off at c=16, and
// `serve --workers 2` vs `--workers 1` (both on a private Redis, per-key limits exercised) at c=64. Run as a section
// of `make bench` (run-bench.ts) and alone by `make bench-scale` (scale-compare.ts).
// Both variants of a comparison run at once and stay up across its rounds, each brought to steady state first: a
// gateway restarted for every round was measured during its JIT warm-up (seconds of load at a fraction of its
// throughput), which is the start-up cost, not the feature's. Rounds alternate which variant goes first.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadGenerator } from './load.js';
import { freePort, waitForPort, type ProcessGroup } from './processes.js';
import { chatBody, GATEWAY_MODEL } from './requests.js';
import { DISTURBED_FOREIGN_PCT, MachineWindow, type MachineShare } from './machine-window.js';
import { childPids, cpuDelta, cpuSnapshot } from './proc-stats.js';
import type { BenchPaths } from './systems.js';
import { median, medianInterval, round } from './stats.js';
import { SERVE_NODE_OPTIONS } from '../../src/cli/serve-node-options.js';

export const METRICS_TOKEN = 'bench-metrics-token-0123456789';

export interface ScaleWindow {
  rounds: number;
  steadyStateSeconds: number;
  warmupSeconds: number;
  measureSeconds: number;
}

export interface ScaleRun {
  round: number;
  rps: number;
  p99: number;
  /** CPU of the variant's processes (primary and workers) per completed request. */
  cpuMsPerRequest: number;
  failures: number;
  machine: MachineShare;
}

/** The comparisons, in the order they run (`make bench-scale` can name a subset). */
export const SCALE_COMPARISON_IDS = [
  'metrics',
  'observability-unsampled',
  'observability',
  'observability-sampled',
  'workers',
] as const;
/**
 * What runs unless comparisons are named. Metrics alone and tracing with nothing sampled take observability's cost
 * apart (docs/observability.md); they run only when asked for.
 */
export const DEFAULT_SCALE_COMPARISONS: readonly ScaleComparison['id'][] = [
  'observability',
  'observability-sampled',
  'workers',
];

export interface ScaleComparison {
  id: (typeof SCALE_COMPARISON_IDS)[number];
  title: string;
  concurrency: number;
  /** [baseline, other]: ratios are other ÷ baseline. */
  variants: { name: string; runs: ScaleRun[] }[];
}

export interface ScaleResults extends ScaleWindow {
  comparisons: ScaleComparison[];
  /** Trace batches the local OTLP sink received, and metrics scrapes answered 200: the features really ran. */
  otlpBatches: number;
  metricsScrapes: number;
}

export interface ScaleContext {
  group: ProcessGroup;
  load: LoadGenerator;
  paths: BenchPaths;
  /** The gateway's environment (gatewayEnv) and a key with credits in its database. */
  env: NodeJS.ProcessEnv;
  apiKey: string;
  /** Every process of the benchmark, for the machine's foreign share (the variants' workers are added here). */
  ownPids: () => number[];
  log: (line: string) => void;
}

interface Variant {
  name: string;
  env: NodeJS.ProcessEnv;
  workers: number;
  scraped: boolean;
}

interface RunningVariant extends Variant {
  child: ChildProcess;
  port: number;
  pids: () => number[];
}

/** Runs the comparisons (`only` these, when given: `make bench-scale` can name them; the default set otherwise). */
export async function runScaleComparisons(
  ctx: ScaleContext,
  window: ScaleWindow,
  only: readonly ScaleComparison['id'][] = DEFAULT_SCALE_COMPARISONS,
): Promise<ScaleResults> {
  const sink = await startSpanSink();
  let scrapes = 0;
  try {
    const redisPort = await freePort();
    const redis = ctx.group.start(
      'redis',
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        logFile: path.join(ctx.paths.runDir, 'scale-redis.log'),
      },
    );
    await waitForPort(redisPort, redis, 'redis');
    const { env } = ctx;
    const onRedis = {
      ...env,
      MODELGATE_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      MODELGATE_RATE_LIMIT_RPM: '10000000',
      MODELGATE_RATE_LIMIT_TPM: '1000000000',
    };
    const metrics = { ...env, MODELGATE_METRICS_TOKEN: METRICS_TOKEN };
    const plans: { id: ScaleComparison['id']; title: string; concurrency: number; variants: [Variant, Variant] }[] = [
      {
        id: 'metrics',
        title: 'Metrics on vs off (non-streaming, c=16)',
        concurrency: 16,
        variants: [
          { name: 'off', env, workers: 1, scraped: false },
          { name: 'metrics', env: metrics, workers: 1, scraped: true },
        ],
      },
      {
        // Tracing's cost for the requests it does not sample: the SDK decides, nothing is recorded or exported.
        id: 'observability-unsampled',
        title: 'Metrics and tracing with no trace sampled on vs off (non-streaming, c=16)',
        concurrency: 16,
        variants: [
          { name: 'off', env, workers: 1, scraped: false },
          {
            name: 'metrics + tracing (always_off)',
            env: { ...metrics, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'always_off' },
            workers: 1,
            scraped: true,
          },
        ],
      },
      {
        id: 'observability',
        title: 'Metrics and tracing on vs off (non-streaming, c=16)',
        concurrency: 16,
        variants: [
          { name: 'off', env, workers: 1, scraped: false },
          {
            name: 'metrics + tracing',
            env: { ...env, MODELGATE_METRICS_TOKEN: METRICS_TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url },
            workers: 1,
            scraped: true,
          },
        ],
      },
      {
        // The same at the sampling docs/observability.md suggests for busy gateways (informational, no target):
        // unsampled requests still get their metrics and non-recording spans.
        id: 'observability-sampled',
        title: 'Metrics and tracing with 10% of traces sampled on vs off (non-streaming, c=16)',
        concurrency: 16,
        variants: [
          { name: 'off', env, workers: 1, scraped: false },
          {
            name: 'metrics + tracing (10% sampled)',
            env: {
              ...env,
              MODELGATE_METRICS_TOKEN: METRICS_TOKEN,
              OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
              OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
              OTEL_TRACES_SAMPLER_ARG: '0.1',
            },
            workers: 1,
            scraped: true,
          },
        ],
      },
      {
        id: 'workers',
        title: 'serve --workers 2 vs 1 (non-streaming, c=64, Redis limits)',
        concurrency: 64,
        variants: [
          { name: '--workers 1', env: onRedis, workers: 1, scraped: false },
          { name: '--workers 2', env: onRedis, workers: 2, scraped: false },
        ],
      },
    ];
    const comparisons: ScaleComparison[] = [];
    for (const plan of plans.filter((p) => only.includes(p.id))) {
      const running: RunningVariant[] = [];
      try {
        for (const variant of plan.variants) running.push(await startVariant(ctx, variant));
        const job = (v: RunningVariant, warmupSeconds: number, measureSeconds: number) => ({
          url: `http://127.0.0.1:${v.port}/api/v1/chat/completions`,
          headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
          body: chatBody('json', GATEWAY_MODEL),
          connections: plan.concurrency,
          warmupSeconds,
          measureSeconds,
        });
        for (const v of running) await ctx.load.run(job(v, 0, window.steadyStateSeconds));
        const results = running.map((v) => ({ name: v.name, runs: [] as ScaleRun[] }));
        for (let roundNo = 1; roundNo <= window.rounds; roundNo++) {
          const order = roundNo % 2 === 1 ? [0, 1] : [1, 0];
          for (const i of order) {
            const v = running[i];
            // Scrapes only while this variant is measured, so they never load the other variant's window.
            const scraping = v.scraped
              ? setInterval(() => void scrape(v.port).then((ok) => (scrapes += ok ? 1 : 0)), 1000)
              : undefined;
            let cpu = new Map<number, number>();
            let machine: MachineWindow | undefined;
            try {
              const summary = await ctx.load.run(job(v, window.warmupSeconds, window.measureSeconds), () => {
                cpu = cpuSnapshot(v.pids());
                machine = new MachineWindow(() => [...ctx.ownPids(), ...running.flatMap((r) => r.pids())]);
              });
              const share = machine?.close() ?? { busyPct: 0, foreignPct: 0 };
              const run: ScaleRun = {
                round: roundNo,
                rps: round(summary.rps, 1),
                p99: round(summary.latency.p99, 2),
                cpuMsPerRequest: round(cpuDelta(cpu, cpuSnapshot(v.pids())) / Math.max(1, summary.ok), 3),
                failures: summary.non2xx + summary.errors,
                machine: share,
              };
              results[i].runs.push(run);
              ctx.log(
                `scale: ${plan.title} · ${v.name} · round ${roundNo}: ${run.rps} req/s, p99 ${run.p99} ms, CPU ${run.cpuMsPerRequest} ms/req` +
                  `${run.failures ? `, ${run.failures} FAILED` : ''} [machine ${share.busyPct}% busy, ${share.foreignPct}% foreign]`,
              );
            } finally {
              clearInterval(scraping);
            }
          }
        }
        comparisons.push({ id: plan.id, title: plan.title, concurrency: plan.concurrency, variants: results });
      } finally {
        for (const v of running) await ctx.group.stop(v.child, 60_000);
      }
    }
    await ctx.group.stop(redis);
    return { ...window, comparisons, otlpBatches: sink.batches(), metricsScrapes: scrapes };
  } finally {
    await sink.close();
  }
}

async function startVariant(ctx: ScaleContext, variant: Variant): Promise<RunningVariant> {
  const port = await freePort();
  const logFile = path.join(
    ctx.paths.runDir,
    `scale-${variant.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.log`,
  );
  const entry = path.join(ctx.paths.distDir, 'bench/gateway-entry.js');
  const child = ctx.group.start(
    'modelgate',
    process.execPath,
    [...SERVE_NODE_OPTIONS, entry, '--workers', String(variant.workers)],
    {
      env: { ...variant.env, PORT: String(port) },
      cwd: ctx.paths.repoRoot,
      logFile,
    },
  );
  // Several workers load the app in parallel: on a busy machine that takes a while.
  await waitForPort(port, child, variant.name, 120_000);
  // The port opens with the first worker; the measurement starts once all of them listen.
  if (variant.workers > 1) await waitForLog(logFile, 'modelgate cluster listening', 120_000);
  const pid = child.pid!;
  return { ...variant, child, port, pids: () => [pid, ...childPids(pid)] };
}

/**
 * other ÷ baseline req/s per round (rounds pair runs seconds apart) and the median over the rounds, leaving out rounds
 * in which either run had more than DISTURBED_FOREIGN_PCT foreign load when undisturbed rounds exist (as the paired
 * figures of the rest of the benchmark do), with its 95% confidence interval when there are rounds enough (6); beside
 * it, the ratio of the two variants' median req/s over all rounds.
 */
export function scaleRatios(comparison: ScaleComparison): {
  perRound: number[];
  median?: number;
  interval?: [number, number];
  disturbedLeftOut: number;
  medianOfMedians?: number;
} {
  const [base, other] = comparison.variants;
  const pairs = other.runs.flatMap((run) => {
    const ref = base.runs.find((r) => r.round === run.round);
    return ref && ref.rps > 0
      ? [
          {
            value: round(run.rps / ref.rps, 3),
            disturbed: Math.max(run.machine.foreignPct, ref.machine.foreignPct) > DISTURBED_FOREIGN_PCT,
          },
        ]
      : [];
  });
  const clean = pairs.filter((p) => !p.disturbed);
  const used = clean.length > 0 ? clean : pairs;
  const m = median(used.map((p) => p.value));
  const interval = medianInterval(used.map((p) => p.value));
  const a = median(other.runs.map((r) => r.rps));
  const b = median(base.runs.map((r) => r.rps));
  return {
    perRound: pairs.map((p) => p.value),
    ...(m === undefined ? {} : { median: round(m, 3) }),
    ...(interval === undefined ? {} : { interval }),
    disturbedLeftOut: pairs.length - used.length,
    ...(a === undefined || b === undefined || b === 0 ? {} : { medianOfMedians: round(a / b, 3) }),
  };
}

async function waitForLog(logFile: string, message: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!readFileSync(logFile, 'utf8').includes(`"msg":"${message}"`)) {
    if (Date.now() > deadline) throw new Error(`no "${message}" in ${logFile} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function scrape(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    http
      .get(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      })
      .on('error', () => resolve(false));
  });
}

/** A local OTLP/HTTP endpoint that accepts and counts trace batches (the exporter's cost is measured, not a collector's). */
export async function startSpanSink(): Promise<{ url: string; batches: () => number; close: () => Promise<void> }> {
  let batches = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      batches++;
      // An empty ExportTraceServiceResponse in the request's encoding (protobuf unless the exporter sent JSON).
      if (req.headers['content-type']?.includes('json'))
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    batches: () => batches,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
