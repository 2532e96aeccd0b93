// `make bench` / `make bench-quick`: starts the mock upstream, the bare pass-through, Modelgate (production
// build, PostgreSQL scratch database, real metering) and Portkey; measures them side by side; writes
// bench/results/<mode>.{json,md,svg}. Run through bench/run.sh, which provides the private network namespace.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makePlan, steadyStateSummary, VARIANT_LABELS, VARIANT_SCENARIO, type SystemName } from './lib/plan.js';
import { ProcessGroup } from './lib/processes.js';
import {
  startMock,
  startPassthrough,
  startModelgate,
  startPortkey,
  gatewayEnv,
  provisionGateway,
  type RunningSystem,
} from './lib/systems.js';
import { Supervised, measureSupervised } from './lib/supervise.js';
import { createScratchDatabase, accountingSummary, type ScratchDatabase } from './lib/scratch-database.js';
import { measureProbes, measureRun, ownProcesses, type MeasureContext } from './lib/measure.js';
import { rotate } from './lib/interleaved-probe.js';
import { runProbe } from './lib/probe.js';
import { measureResponseCache } from './lib/cache-probe.js';
import { LoadGenerator } from './lib/load.js';
import {
  chatBody,
  messagesStreamBody,
  messagesUrl,
  responsesStreamBody,
  responsesUrl,
  routedChatBody,
  ROUTED_PROVIDER_ORDER,
  variantRequest,
} from './lib/requests.js';
import { checkDoorStream, checkRoutedCompletion, MESSAGES_STREAM, RESPONSES_STREAM } from './lib/front-door-smoke.js';
import { runScaleComparisons } from './lib/scale-comparison.js';
import { runLaneComparison } from './lib/lane-comparison.js';
import { leakCheck } from './lib/leak-check.js';
import { profileGateway } from './lib/profile-run.js';
import { evaluateTargets } from './lib/targets.js';
import { renderMarkdown } from './lib/report-markdown.js';
import { renderSvg } from './lib/report-svg.js';
import { gitInfo, logStats, machineInfo } from './lib/environment.js';
import type { BenchResults, ProbeRecord, RoundRunRecord, RunRecord } from './lib/results.js';

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

function logRun(prefix: string, r: RunRecord): void {
  const failed = r.load.non2xx + r.load.errors;
  log(
    `${prefix} ${r.scenario.padEnd(9)} c=${String(r.concurrency).padEnd(2)} ${r.system.padEnd(11)} ${r.load.rps} req/s, p50 ${r.load.latency.p50} ms, ` +
      `p99 ${r.load.latency.p99} ms, RSS ${r.rssMaxMb} MB, CPU ${r.cpuMsPerRequest} ms/req` +
      (r.observer?.firstChunk ? `, first chunk p50 ${r.observer.firstChunk.p50} ms` : '') +
      (failed ? `, ${failed} FAILED` : '') +
      (r.machine ? ` [machine ${r.machine.busyPct}% busy, ${r.machine.foreignPct}% foreign]` : ''),
  );
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
    const result = await runProbe({
      target: system,
      body: chatBody(scenario, system.model),
      stream: scenario === 'stream',
      warmupRequests: 0,
      maxRequests: 3,
      seconds: 10,
    });
    if (result.failures > 0 || result.requests === 0) {
      throw new Error(
        `${system.name} failed a ${scenario} smoke request: ${result.firstFailure ?? 'no answer'} (log: ${system.logFile})`,
      );
    }
  }
  if (system.name === 'modelgate') {
    await checkDoorStream(
      responsesUrl(system.url),
      system.headers,
      responsesStreamBody(system.model),
      RESPONSES_STREAM,
    );
    await checkDoorStream(messagesUrl(system.url), system.headers, messagesStreamBody(system.model), MESSAGES_STREAM);
    await checkRoutedCompletion(system.url, system.headers, routedChatBody('json'), ROUTED_PROVIDER_ORDER[0]);
  }
}

async function reachSteadyState(system: Supervised, seconds: number): Promise<void> {
  for (const scenario of ['json', 'stream'] as const) {
    await measureSupervised(system, (current) =>
      ctx.load.run({
        url: current.url,
        headers: { ...current.headers, 'content-type': 'application/json' },
        body: chatBody(scenario, current.model),
        connections: 16,
        warmupSeconds: 0,
        measureSeconds: seconds / 2,
        sampleMs: plan.loadSampleMs,
      }),
    );
  }
}

interface StartedSystems {
  systems: Supervised[];
  gateway: Supervised;
  startGateway: (nodeArgs?: string[]) => Promise<RunningSystem>;
  /** The gateway's environment and API key (the scale section starts gateways of its own on them). */
  env: NodeJS.ProcessEnv;
  apiKey: string;
  mockBaseUrl: string;
  skipped: BenchResults['skipped'];
}

async function startSystems(db: ScratchDatabase, incidents: string[]): Promise<StartedSystems> {
  const mock = await startMock(group, paths);
  const mockPort = Number(new URL(mock.baseUrl).port);
  const skipped: BenchResults['skipped'] = [];
  const withPortkey = process.env.BENCH_PORTKEY !== '0';
  if (!withPortkey) {
    skipped.push({
      system: 'portkey',
      reason: 'no private network namespace (it binds 0.0.0.0); run as root so bench/run.sh can use `unshare -n`',
    });
  }
  const env = gatewayEnv(paths, db.url, mock.baseUrl);
  let apiKey = '';
  const startGateway = (nodeArgs: string[] = []) => startModelgate(group, paths, env, apiKey, nodeArgs);
  // Independent start-ups overlap; the gateway waits for its database and key.
  const [passthrough, gateway, portkey] = await Promise.all([
    startPassthrough(group, paths, mock.baseUrl),
    provisionGateway(paths, env).then((key) => {
      apiKey = key;
      return startGateway();
    }),
    withPortkey ? startPortkey(group, paths, mock.baseUrl) : undefined,
  ]);
  const supervised = (system: RunningSystem, start: () => Promise<RunningSystem>) =>
    new Supervised(system, start, incidents);
  const systems = [
    supervised(mock, () => startMock(group, paths, mockPort)),
    supervised(passthrough, () => startPassthrough(group, paths, mock.baseUrl)),
    supervised(gateway, () => startGateway()),
    ...(portkey ? [supervised(portkey, () => startPortkey(group, paths, mock.baseUrl))] : []),
  ];
  for (const system of systems) await smokeTest(system.current);
  return { systems, gateway: systems[2], startGateway, env, apiKey, mockBaseUrl: mock.baseUrl, skipped };
}

async function main(): Promise<void> {
  const started = new Date();
  const machine = machineInfo();
  mkdirSync(runDir, { recursive: true });
  mkdirSync(resultsDir, { recursive: true });
  log(`modelgate bench (${plan.mode}): logs and profiles in ${path.relative(repoRoot, runDir)}/`);
  database = await createScratchDatabase(process.env.BENCH_PG_SOCKET_DIR ?? '/var/run/postgresql');
  const incidents: string[] = [];
  const { systems, gateway, startGateway, env, apiKey, mockBaseUrl, skipped } = await startSystems(database, incidents);
  log(
    `started ${systems.map((s) => s.current.name).join(', ')} (scratch database ${database.name}); smoke requests pass`,
  );

  const warming = systems
    .map((system) => ({ system, seconds: plan.steadyStateSecondsOf?.[system.current.name] ?? plan.steadyStateSeconds }))
    .filter((w) => w.seconds > 0);
  if (warming.length > 0) {
    for (const { system, seconds } of warming) await reachSteadyState(system, seconds);
    log(`${steadyStateSummary(plan)} at c=16 (JIT and heap at steady state)`);
  }

  // Sequential requests, unrecorded, to every system before the first probe: the first probes of a run measured
  // slower for every system, the mock included, than the same probes a repetition later (a cold probe client and
  // c=1 paths not yet compiled after the concurrent warm-up load).
  for (const system of systems) {
    for (const scenario of ['json', 'stream'] as const) {
      const stream = scenario === 'stream';
      const body = chatBody(scenario, system.current.model, stream ? { probePaceMs: plan.paceMs } : {});
      await measureSupervised(
        system,
        (current) =>
          runProbe({
            target: current,
            body,
            stream,
            warmupRequests: 0,
            maxRequests: plan.probe.maxRequests,
            seconds: plan.probe.warmupSeconds / 2,
          }),
        systems,
      );
    }
  }
  for (const variant of plan.probe.variants) {
    const stream = VARIANT_SCENARIO[variant] === 'stream';
    await measureSupervised(
      gateway,
      (current) => {
        const { url, body, format } = variantRequest(variant, current.url, stream ? { probePaceMs: plan.paceMs } : {});
        return runProbe({
          target: { url, headers: current.headers },
          body,
          stream,
          format,
          warmupRequests: 0,
          maxRequests: plan.probe.maxRequests,
          seconds: plan.probe.warmupSeconds / 2,
        });
      },
      systems,
    );
  }

  const runs: RunRecord[] = [];
  const probes: ProbeRecord[] = [];
  const variantProbes: ProbeRecord[] = [];
  const throughputRounds: RoundRunRecord[] = [];
  const rounds = plan.throughputRounds;
  const roundSystems = systems.filter((s) => rounds.systems.includes(s.current.name));
  const responsesRuns: RunRecord[] = [];
  const messagesRuns: RunRecord[] = [];
  const probedVariants = plan.probe.variants.filter((v) => plan.probe.scenarios.includes(VARIANT_SCENARIO[v]));
  const total =
    plan.reps *
    ((plan.probe.scenarios.length + plan.grid.length) * systems.length +
      probedVariants.length +
      rounds.roundsPerRep * roundSystems.length +
      2);
  let step = 0;
  const progress = () => `[${String(++step).padStart(3)}/${total}]`;
  for (let rep = 1; rep <= plan.reps; rep++) {
    for (const scenario of plan.probe.scenarios) {
      // All systems in one interleaved measurement (redone whole if any system had to be restarted).
      const order = rotate(systems, rep);
      const records = await measureSupervised(
        order[0],
        () =>
          measureProbes(
            ctx,
            order.map((s) => s.current),
            scenario,
            rep,
          ),
        order.slice(1),
      );
      for (const p of records) {
        (p.variant ? variantProbes : probes).push(p);
        log(
          `${progress()} rep ${rep} probe c=1 ${scenario.padEnd(9)} ${(p.variant ? VARIANT_LABELS[p.variant] : p.system).padEnd(11)} p50 ${p.latency?.p50 ?? '—'} ms, p99 ${p.latency?.p99 ?? '—'} ms` +
            (p.firstChunk
              ? `, first chunk p50 ${p.firstChunk.p50} ms, later chunks delay p99 ${p.chunkDelay?.p99} ms`
              : '') +
            (p.failures ? `, ${p.failures} FAILED: ${p.firstFailure}` : '') +
            (p.machine ? ` [machine ${p.machine.busyPct}% busy, ${p.machine.foreignPct}% foreign]` : ''),
        );
      }
    }
    for (const [i, { scenario, concurrency }] of plan.grid.entries()) {
      for (const system of rotate(systems, rep + i)) {
        const r = await measureSupervised(
          system,
          (current) => measureRun(ctx, current, scenario, concurrency, rep),
          systems,
        );
        runs.push(r);
        logRun(`${progress()} rep ${rep}`, r);
      }
    }
    {
      // The Responses and Messages front doors on the same pipeline: one streaming run each on Modelgate (the other
      // systems serve only chat completions).
      const { concurrency } = plan.responsesStream;
      const doors = [
        {
          path: '/responses',
          runs: responsesRuns,
          request: (url: string, model: string) => ({ url: responsesUrl(url), body: responsesStreamBody(model) }),
        },
        {
          path: '/messages',
          runs: messagesRuns,
          request: (url: string, model: string) => ({ url: messagesUrl(url), body: messagesStreamBody(model) }),
        },
      ];
      for (const door of doors) {
        const r = await measureSupervised(
          gateway,
          (current) =>
            measureRun(ctx, current, 'stream', concurrency, rep, plan, door.request(current.url, current.model)),
          systems,
        );
        door.runs.push(r);
        logRun(`${progress()} rep ${rep} ${door.path}`, r);
      }
    }
    for (let k = 0; k < rounds.roundsPerRep; k++) {
      const round = (rep - 1) * rounds.roundsPerRep + k + 1;
      for (const system of rotate(roundSystems, round)) {
        const r = await measureSupervised(
          system,
          (current) => measureRun(ctx, current, rounds.scenario, rounds.concurrency, rep, rounds),
          systems,
        );
        throughputRounds.push({ ...r, round });
        logRun(`${progress()} round ${round}`, r);
      }
    }
  }

  log(`response cache: a hit against a miss, c=1, ${plan.responseCache.seconds} s per scenario and state`);
  const responseCache = await measureSupervised(
    gateway,
    (current) => measureResponseCache(current, plan.responseCache),
    systems,
  );
  for (const r of responseCache) {
    log(
      `response cache ${r.scenario.padEnd(6)} ${r.state.padEnd(4)} ${r.requests} requests, p50 ${r.latency?.p50 ?? '—'} ms, p99 ${r.latency?.p99 ?? '—'} ms` +
        (r.failures ? `, ${r.failures} FAILED: ${r.firstFailure}` : ''),
    );
  }

  let leak: BenchResults['leak'];
  if (plan.leakSeconds > 0) {
    log(`leak check: ${plan.leakSeconds} s at c=64 on modelgate`);
    leak = await measureSupervised(gateway, (current) => leakCheck(ctx, current, plan.leakSeconds), systems);
    log(
      `leak check: RSS floor ${leak.startMb} → ${leak.endMb} MB (peak ${leak.maxMb}, floors ${leak.slopeMbPerMin} MB/min) ${leak.pass ? 'no growth' : 'GROWTH'}`,
    );
  }
  await group.stop(gateway.current.child, 40_000);
  let profile: BenchResults['profile'];
  if (plan.profileSeconds > 0) {
    log(
      `profiling modelgate: node --cpu-prof, ${plan.profileSeconds} s non-streaming + ${plan.profileSeconds} s streaming at c=16`,
    );
    try {
      profile = await profileGateway(ctx, (nodeArgs) => startGateway(nodeArgs), plan.profileSeconds);
      log(
        `profile: ${profile.top
          .slice(0, 5)
          .map((f) => `${f.functionName} ${f.selfPct}%`)
          .join(', ')}`,
      );
    } catch (err) {
      incidents.push(`profile not taken: ${(err as Error).message}`);
    }
  }
  let scale: BenchResults['scale'];
  if (plan.scale.rounds > 0) {
    log(
      `observability cost and workers: ${plan.scale.rounds} alternating rounds of ${plan.scale.measureSeconds} s per variant`,
    );
    try {
      scale = await runScaleComparisons(
        { group, load: ctx.load, paths, env, apiKey, ownPids: () => ownProcesses(ctx), log },
        plan.scale,
      );
    } catch (err) {
      incidents.push(`observability and workers comparison not completed: ${(err as Error).message}`);
    }
  }
  let lanes: BenchResults['lanes'];
  if (plan.lanes.rounds > 0) {
    log(
      `lanes: small and agent-sized requests per lane against the bare proxy, ${plan.lanes.rounds} paired rounds of ${plan.lanes.measureSeconds} s`,
    );
    try {
      lanes = await runLaneComparison(
        {
          group,
          load: ctx.load,
          paths,
          env,
          apiKey,
          mockBaseUrl,
          database: database.name,
          ownPids: () => ownProcesses(ctx),
          log,
        },
        plan.lanes,
      );
    } catch (err) {
      incidents.push(`lanes comparison not completed: ${(err as Error).message}`);
    }
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
    systems: systems.map((s) => s.current.name as SystemName),
    skipped,
    incidents,
    runs,
    probes,
    variantProbes,
    throughputRounds,
    responsesRuns,
    messagesRuns,
    responseCache,
    scale,
    lanes,
    leak,
    profile,
    accounting,
    gatewayLog: logStats(gateway.current.logFile),
    targets: [],
  };
  results.targets = evaluateTargets(results);
  writeFileSync(path.join(resultsDir, `${plan.mode}.json`), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(path.join(resultsDir, `${plan.mode}.svg`), renderSvg(results));
  writeFileSync(path.join(resultsDir, `${plan.mode}.md`), renderMarkdown(results, `${plan.mode}.svg`));
  log(`wrote bench/results/${plan.mode}.{md,json,svg} in ${Math.round(results.durationS)} s`);
  for (const incident of incidents) log(`incident: ${incident}`);
  for (const t of results.targets)
    log(`${t.pass === null ? 'n/a ' : t.pass ? 'pass' : 'FAIL'}  ${t.description}: ${t.measured}`);
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
