// `make bench` / `make bench-quick`: starts the mock upstream, the bare pass-through, Modelgate (production
// build, PostgreSQL scratch database, real metering) and Portkey; measures them side by side; writes
// bench/results/<mode>.{json,md,svg}. Run through bench/run.sh, which provides the private network namespace.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makePlan, type SystemName } from './lib/plan.js';
import { ProcessGroup } from './lib/processes.js';
import { startMock, startPassthrough, startModelgate, startPortkey, gatewayEnv, provisionGateway, type RunningSystem } from './lib/systems.js';
import { createScratchDatabase, accountingSummary, type ScratchDatabase } from './lib/scratch-database.js';
import { measureProbe, measureRun, type MeasureContext } from './lib/measure.js';
import { runProbe } from './lib/probe.js';
import { LoadGenerator } from './lib/load.js';
import { chatBody } from './lib/requests.js';
import { leakCheck } from './lib/leak-check.js';
import { profileGateway } from './lib/profile-run.js';
import { evaluateTargets } from './lib/targets.js';
import { renderMarkdown } from './lib/report-markdown.js';
import { renderSvg } from './lib/report-svg.js';
import { gitInfo, logStats, machineInfo } from './lib/environment.js';
import type { BenchResults, ProbeRecord, RunRecord } from './lib/results.js';

const plan = makePlan(process.argv[2] ?? 'quick');
const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(process.env.BENCH_REPO_ROOT ?? process.cwd());
const runDir = path.resolve(process.env.BENCH_RUN_DIR ?? path.join(repoRoot, 'bench/.run'));
const resultsDir = path.join(repoRoot, 'bench/results');
const paths = { repoRoot, distDir, runDir };
const group = new ProcessGroup();
const ctx: MeasureContext = {
  group,
  distDir,
  runDir,
  plan,
  load: new LoadGenerator(group, distDir, path.join(runDir, 'load-generator.log')),
  ownPids: () => [process.pid, ...group.pids()],
  database: () => database?.name,
};
let database: ScratchDatabase | undefined;

function log(line: string): void {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
}

/** A different system order per repetition and configuration, so no system always runs first after a pause. */
function rotate<T>(items: T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

async function cleanup(): Promise<void> {
  await ctx.load.close();
  await group.stopAll();
  const db = database;
  database = undefined;
  await db?.drop().catch((err: Error) => log(`could not drop ${db.name}: ${err.message}`));
}

async function smokeTest(system: RunningSystem): Promise<void> {
  for (const scenario of ['json', 'stream'] as const) {
    const result = await runProbe({ target: system, body: chatBody(scenario, system.model), stream: scenario === 'stream', warmupRequests: 0, maxRequests: 3, seconds: 10 });
    if (result.failures > 0 || result.requests === 0) {
      throw new Error(`${system.name} failed a ${scenario} smoke request: ${result.firstFailure ?? 'no answer'} (log: ${system.logFile})`);
    }
  }
}

async function main(): Promise<void> {
  const started = new Date();
  const machine = machineInfo();
  mkdirSync(runDir, { recursive: true });
  mkdirSync(resultsDir, { recursive: true });
  log(`modelgate bench (${plan.mode}): logs and profiles in ${path.relative(repoRoot, runDir)}/`);

  const mock = await startMock(group, paths);
  const skipped: BenchResults['skipped'] = [];
  const withPortkey = process.env.BENCH_PORTKEY !== '0';
  if (!withPortkey) {
    skipped.push({ system: 'portkey', reason: 'no private network namespace (it binds 0.0.0.0); run as root so bench/run.sh can use `unshare -n`' });
  }
  database = await createScratchDatabase(process.env.BENCH_PG_SOCKET_DIR ?? '/var/run/postgresql');
  const env = gatewayEnv(paths, database.url, mock.baseUrl);
  let apiKey = '';
  const startGateway = (nodeArgs: string[] = []) => startModelgate(group, paths, env, apiKey, nodeArgs);
  // Independent start-ups overlap; the gateway waits for its database and key.
  const [passthrough, first, portkey] = await Promise.all([
    startPassthrough(group, paths, mock.baseUrl),
    provisionGateway(paths, env).then((key) => {
      apiKey = key;
      return startGateway();
    }),
    withPortkey ? startPortkey(group, paths, mock.baseUrl) : undefined,
  ]);
  let modelgate = first;
  const systems: RunningSystem[] = [mock, passthrough, modelgate, ...(portkey ? [portkey] : [])];
  for (const system of systems) await smokeTest(system);
  log(`started ${systems.map((s) => s.name).join(', ')} (scratch database ${database.name}); smoke requests pass`);

  const runs: RunRecord[] = [];
  const probes: ProbeRecord[] = [];
  const total = plan.reps * (plan.probe.scenarios.length + plan.grid.length) * systems.length;
  let step = 0;
  const progress = () => `[${String(++step).padStart(3)}/${total}]`;
  for (let rep = 1; rep <= plan.reps; rep++) {
    for (const scenario of plan.probe.scenarios) {
      for (const system of rotate(systems, rep)) {
        const p = await measureProbe(ctx, system, scenario, rep);
        probes.push(p);
        log(`${progress()} rep ${rep} probe c=1 ${scenario.padEnd(9)} ${system.name.padEnd(11)} p50 ${p.latency?.p50 ?? '—'} ms, p99 ${p.latency?.p99 ?? '—'} ms` +
          (p.firstChunk ? `, first chunk p50 ${p.firstChunk.p50} ms, later chunks delay p99 ${p.chunkDelay?.p99} ms` : '') + (p.failures ? `, ${p.failures} FAILED: ${p.firstFailure}` : ''));
      }
    }
    for (const [i, { scenario, concurrency }] of plan.grid.entries()) {
      for (const system of rotate(systems, rep + i)) {
        const r = await measureRun(ctx, system, scenario, concurrency, rep);
        runs.push(r);
        const failed = r.load.non2xx + r.load.errors;
        log(`${progress()} rep ${rep} ${scenario.padEnd(9)} c=${String(concurrency).padEnd(2)} ${system.name.padEnd(11)} ${r.load.rps} req/s, p50 ${r.load.latency.p50} ms, ` +
          `p99 ${r.load.latency.p99} ms, RSS ${r.rssMaxMb} MB, CPU ${r.cpuMsPerRequest} ms/req` +
          (r.observer?.firstChunk ? `, first chunk p50 ${r.observer.firstChunk.p50} ms` : '') + (failed ? `, ${failed} FAILED` : '') +
          (r.machine ? ` [machine ${r.machine.busyPct}% busy, ${r.machine.foreignPct}% foreign]` : ''));
      }
    }
  }

  let leak: BenchResults['leak'];
  if (plan.leakSeconds > 0) {
    log(`leak check: ${plan.leakSeconds} s at c=64 on modelgate`);
    leak = await leakCheck(ctx, modelgate, plan.leakSeconds);
    log(`leak check: RSS ${leak.startMb} → ${leak.endMb} MB (max ${leak.maxMb}, ${leak.slopeMbPerMin} MB/min) ${leak.pass ? 'no growth' : 'GROWTH'}`);
  }
  await group.stop(modelgate.child, 40_000);
  let profile: BenchResults['profile'];
  if (plan.profileSeconds > 0) {
    log(`profiling modelgate: node --cpu-prof, ${plan.profileSeconds} s non-streaming + ${plan.profileSeconds} s streaming at c=16`);
    profile = await profileGateway(ctx, async (nodeArgs) => (modelgate = await startGateway(nodeArgs)), plan.profileSeconds);
    log(`profile: ${profile.top.slice(0, 5).map((f) => `${f.functionName} ${f.selfPct}%`).join(', ')}`);
  }
  const accounting = await accountingSummary(database.url);
  await cleanup();

  const finished = new Date();
  const results: BenchResults = {
    schema: 'modelgate-bench/1',
    mode: plan.mode,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationS: (finished.getTime() - started.getTime()) / 1000,
    machine,
    git: gitInfo(repoRoot),
    plan,
    systems: systems.map((s) => s.name as SystemName),
    skipped,
    runs,
    probes,
    leak,
    profile,
    accounting,
    gatewayLog: logStats(modelgate.logFile),
    targets: [],
  };
  results.targets = evaluateTargets(results);
  writeFileSync(path.join(resultsDir, `${plan.mode}.json`), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(path.join(resultsDir, `${plan.mode}.svg`), renderSvg(results));
  writeFileSync(path.join(resultsDir, `${plan.mode}.md`), renderMarkdown(results, `${plan.mode}.svg`));
  log(`wrote bench/results/${plan.mode}.{md,json,svg} in ${Math.round(results.durationS)} s`);
  for (const t of results.targets) log(`${t.pass === null ? 'n/a ' : t.pass ? 'pass' : 'FAIL'}  ${t.description}: ${t.measured}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping everything`);
    void cleanup().finally(() => process.exit(130));
  });
}

main().catch(async (err: Error) => {
  log(`bench failed: ${err.stack ?? err.message}`);
  await cleanup();
  process.exit(1);
});
