// Where observability's CPU goes per request: the gateway (PostgreSQL metering, mock upstream, non-streaming, c=16)
// under `node --cpu-prof` with nothing on, metrics alone, then metrics + tracing with the always_off sampler, 10% and
// 100% sampled. Each variant is a fresh process: 15 s of unprofiled-window load, then a measured window whose CPU per
// request comes from /proc and whose profile is summarized as self µs per request, by module and by function, beside
// the variant without the feature. Variants run one after the other, so compare CPU per request, not req/s.
// Usage (after `make build`): node dist/bench/observability-profile.js [measured seconds, default 20] [variant...]
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LoadGenerator } from './lib/load.js';
import { freePort, ProcessGroup, waitForPort } from './lib/processes.js';
import { createScratchDatabase } from './lib/scratch-database.js';
import { gatewayEnv, provisionGateway, startMock, type BenchPaths } from './lib/systems.js';
import { chatBody, GATEWAY_MODEL } from './lib/requests.js';
import { cpuDelta, cpuSnapshot } from './lib/proc-stats.js';
import { MachineWindow } from './lib/machine-window.js';
import { METRICS_TOKEN, scrape, startSpanSink } from './lib/scale-comparison.js';
import { summarizeProfile, type CpuProfile } from './lib/cpu-profile.js';
import { SERVE_NODE_OPTIONS } from '../src/cli/serve-node-options.js';

const VARIANTS = ['off', 'metrics', 'tracing-unsampled', 'tracing-10', 'tracing-100'] as const;
type VariantId = (typeof VARIANTS)[number];

interface VariantResult {
  id: VariantId;
  rps: number;
  requests: number;
  cpuUsPerRequest: number;
  foreignPct: number;
  profileBusyUsPerRequest: number;
  modules: Map<string, number>;
  functions: Map<string, number>;
}

function variantEnv(id: VariantId, base: NodeJS.ProcessEnv, sinkUrl: string): NodeJS.ProcessEnv {
  if (id === 'off') return base;
  const metrics = { ...base, MODELGATE_METRICS_TOKEN: METRICS_TOKEN };
  if (id === 'metrics') return metrics;
  const tracing = { ...metrics, OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl };
  if (id === 'tracing-unsampled') return { ...tracing, OTEL_TRACES_SAMPLER: 'always_off' };
  if (id === 'tracing-10')
    return { ...tracing, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };
  return tracing;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 20);
  const ids = (process.argv.length > 3 ? process.argv.slice(3) : [...VARIANTS]) as VariantId[];
  if (!(seconds > 0) || ids.some((id) => !VARIANTS.includes(id)))
    throw new Error(`usage: observability-profile.js [seconds] [${VARIANTS.join('|')}...]`);
  const repoRoot = process.env.BENCH_REPO_ROOT ?? process.cwd();
  const runDir = path.join(repoRoot, 'bench/.run/observability-profile');
  mkdirSync(runDir, { recursive: true });
  const paths: BenchPaths = { repoRoot, distDir: path.join(repoRoot, 'dist'), runDir };
  const group = new ProcessGroup();
  const load = new LoadGenerator(group, paths.distDir, path.join(runDir, 'load-generator.log'));
  const database = await createScratchDatabase(process.env.BENCH_PG_SOCKET_DIR ?? '/var/run/postgresql');
  const sink = await startSpanSink();
  const results: VariantResult[] = [];
  try {
    const mock = await startMock(group, paths);
    const env = gatewayEnv(paths, database.url, mock.baseUrl);
    const apiKey = await provisionGateway(paths, env);
    for (const id of ids) {
      results.push(await profileVariant(id, variantEnv(id, env, sink.url), apiKey, seconds, { group, load, paths }));
      const r = results.at(-1)!;
      console.log(
        `${id}: ${r.rps.toFixed(0)} req/s, CPU ${r.cpuUsPerRequest.toFixed(1)} µs/req (profile ${r.profileBusyUsPerRequest.toFixed(1)}), foreign ${r.foreignPct}%`,
      );
    }
  } finally {
    await load.close();
    await group.stopAll();
    await sink.close();
    await database.drop();
  }
  const report = renderReport(results, seconds);
  writeFileSync(path.join(runDir, 'report.md'), report);
  console.log(report);
}

async function profileVariant(
  id: VariantId,
  env: NodeJS.ProcessEnv,
  apiKey: string,
  seconds: number,
  ctx: { group: ProcessGroup; load: LoadGenerator; paths: BenchPaths },
): Promise<VariantResult> {
  const dir = path.join(ctx.paths.runDir, id);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const entry = path.join(ctx.paths.distDir, 'bench/gateway-entry.js');
  const child = ctx.group.start(
    id,
    process.execPath,
    [...SERVE_NODE_OPTIONS, '--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250', entry],
    {
      env: { ...env, PORT: String(port) },
      cwd: ctx.paths.repoRoot,
      logFile: path.join(dir, 'gateway.log'),
    },
  );
  await waitForPort(port, child, id, 120_000);
  const job = (measureSeconds: number) => ({
    url: `http://127.0.0.1:${port}/api/v1/chat/completions`,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: chatBody('json', GATEWAY_MODEL),
    connections: 16,
    warmupSeconds: 0,
    measureSeconds,
  });
  const scraping = env.MODELGATE_METRICS_TOKEN ? setInterval(() => void scrape(port), 1000) : undefined;
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  let fromUs = 0;
  let cpu = new Map<number, number>();
  let machine: MachineWindow | undefined;
  try {
    await ctx.load.run(job(15));
    const summary = await ctx.load.run({ ...job(seconds), warmupSeconds: 1 }, () => {
      fromUs = nowUs();
      cpu = cpuSnapshot([child.pid!]);
      machine = new MachineWindow(() => [process.pid, ...ctx.group.pids()]);
    });
    const toUs = nowUs();
    const cpuMs = cpuDelta(cpu, cpuSnapshot([child.pid!]));
    const share = machine?.close() ?? { busyPct: 0, foreignPct: 0 };
    clearInterval(scraping);
    await ctx.group.stop(child, 40_000);
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no profile in ${dir}: the gateway did not exit cleanly`);
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const profiled = summarizeProfile(profile, file, 100_000, { fromUs, toUs });
    // The profile's window and the load's count the same requests (the load generator's window is the measured one).
    const perRequest = (ms: number) => (ms * 1000) / summary.ok;
    return {
      id,
      rps: summary.rps,
      requests: summary.ok,
      cpuUsPerRequest: (cpuMs * 1000) / summary.ok,
      foreignPct: share.foreignPct,
      profileBusyUsPerRequest: perRequest(profiled.busyMs),
      modules: new Map(profiled.modules.map((m) => [m.module, perRequest(m.selfMs)])),
      functions: new Map(profiled.top.map((f) => [`${f.functionName} ${f.location}`, perRequest(f.selfMs)])),
    };
  } finally {
    clearInterval(scraping);
    await ctx.group.stop(child, 40_000);
  }
}

/** Per variant: CPU per request, then the modules and functions whose self time per request grew most over the previous variant. */
function renderReport(results: VariantResult[], seconds: number): string {
  const f = (n: number) => n.toFixed(1);
  const lines = [
    `# Observability cost per request (c=16, non-streaming, ${seconds} s measured per variant, profile every 250 µs)`,
    '',
    '| variant | req/s | CPU µs/req (/proc) | profiled busy µs/req | foreign % |',
    '| --- | --- | --- | --- | --- |',
    ...results.map(
      (r) =>
        `| ${r.id} | ${r.rps.toFixed(0)} | ${f(r.cpuUsPerRequest)} | ${f(r.profileBusyUsPerRequest)} | ${r.foreignPct} |`,
    ),
  ];
  for (let i = 1; i < results.length; i++) {
    const [before, after] = [results[i - 1]!, results[i]!];
    for (const [what, key] of [
      ['modules', 'modules'],
      ['functions', 'functions'],
    ] as const) {
      const names = new Set([...before[key].keys(), ...after[key].keys()]);
      const deltas = [...names]
        .map((name) => ({ name, before: before[key].get(name) ?? 0, after: after[key].get(name) ?? 0 }))
        .sort((a, b) => b.after - b.before - (a.after - a.before))
        .slice(0, what === 'modules' ? 12 : 25);
      lines.push(
        '',
        `## ${after.id} − ${before.id}: ${what}, self µs per request`,
        '',
        '| | before | after | Δ |',
        '| --- | --- | --- | --- |',
      );
      for (const d of deltas) lines.push(`| ${d.name} | ${f(d.before)} | ${f(d.after)} | ${f(d.after - d.before)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
