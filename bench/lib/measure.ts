// One measured configuration: a load run against one system, with its RSS sampled and its CPU (and, for the
// gateway, PostgreSQL's) taken around exactly the measured window; streams at c > 1 also carry an observer
// probe timing the first chunk under that load.
import { VARIANT_SCENARIO, type Plan, type Scenario } from './plan.js';
import type { ProcessGroup } from './processes.js';
import type { ProbeRecord, RunRecord } from './results.js';
import type { RunningSystem } from './systems.js';
import { chatBody, variantRequest } from './requests.js';
import type { LoadGenerator } from './load.js';
import { runProbe, type ProbeSummary } from './probe.js';
import { runInterleavedProbe } from './interleaved-probe.js';
import { RssSampler, cpuDelta, cpuMs, cpuSnapshot, postgresBackendPids } from './proc-stats.js';
import { MachineWindow } from './machine-window.js';
import { round } from './stats.js';

export interface MeasureContext {
  group: ProcessGroup;
  distDir: string;
  runDir: string;
  plan: Plan;
  /** The long-lived load-generator process every measured run goes through. */
  load: LoadGenerator;
  /** PIDs of every process the benchmark itself runs (systems, load generator, orchestrator). */
  ownPids: () => number[];
  /** The scratch database, whose backends count as the gateway's database work. */
  database: () => string | undefined;
}

export async function measureRun(
  ctx: MeasureContext,
  system: RunningSystem,
  scenario: Scenario,
  concurrency: number,
  rep: number,
  window: { warmupSeconds: number; measureSeconds: number } = ctx.plan,
  /** Another endpoint and body than the scenario's chat request (the Responses door); no observer probe then. */
  request?: { url: string; body: string },
): Promise<RunRecord> {
  const { plan } = ctx;
  let sampler: RssSampler | undefined;
  let cpuAtStart = 0;
  let dbAtStart = new Map<number, number>();
  let finished = false;
  let machine: MachineWindow | undefined;
  let observer: Promise<ProbeSummary> | undefined;
  const load = await ctx.load.run(
    {
      url: request?.url ?? system.url,
      headers: { ...system.headers, 'content-type': 'application/json' },
      body: request?.body ?? chatBody(scenario, system.model),
      connections: concurrency,
      warmupSeconds: window.warmupSeconds,
      measureSeconds: window.measureSeconds,
      sampleMs: plan.loadSampleMs,
    },
    () => {
      sampler = new RssSampler(system.pid);
      cpuAtStart = cpuMs(system.pid);
      machine = new MachineWindow(() => ownProcesses(ctx));
      if (system.name === 'modelgate') dbAtStart = cpuSnapshot(dbBackends(ctx));
      if (scenario === 'stream' && concurrency > 1 && !request) {
        observer = runProbe({
          target: system,
          body: chatBody('stream', system.model, { probePaceMs: plan.paceMs }),
          stream: true,
          warmupRequests: 2,
          maxRequests: plan.probe.maxRequests,
          seconds: window.measureSeconds,
          stop: () => finished,
        });
      }
    },
  );
  finished = true;
  const share = machine?.close();
  const cpuUsed = cpuMs(system.pid) - cpuAtStart;
  const dbCpuUsed = system.name === 'modelgate' ? cpuDelta(dbAtStart, cpuSnapshot(dbBackends(ctx))) : 0;
  const rss = sampler?.stop() ?? { maxMb: 0, lastMb: 0 };
  const observed = await observer;
  const completed = Math.max(1, load.ok + (observed?.requests ?? 0));
  return {
    rep,
    system: system.name,
    scenario,
    concurrency,
    load: { ...load, rps: round(load.rps, 1), latency: { ...load.latency, mean: round(load.latency.mean, 2) } },
    rssMaxMb: round(rss.maxMb, 1),
    cpuMsPerRequest: round(cpuUsed / completed, 3),
    ...(system.name === 'modelgate' ? { dbCpuMsPerRequest: round(dbCpuUsed / completed, 3) } : {}),
    ...(share ? { machine: share } : {}),
    ...(observed ? { observer: observed } : {}),
  };
}

/**
 * The c=1 precise probes of one scenario, every system in turn, slice by slice (interleaved-probe.ts); streams are
 * paced and stamped, so buffering would show. Modelgate's variants of this scenario (plan.probe.variants) take
 * their slices in the same rotating rounds as the systems: their round figures pair with the mock's.
 */
export async function measureProbes(
  ctx: MeasureContext,
  systems: readonly RunningSystem[],
  scenario: Scenario,
  rep: number,
): Promise<ProbeRecord[]> {
  const { probe, paceMs } = ctx.plan;
  const stream = scenario === 'stream';
  const options = stream ? { probePaceMs: paceMs } : {};
  const gateway = systems.find((system) => system.name === 'modelgate');
  const variants = gateway ? probe.variants.filter((variant) => VARIANT_SCENARIO[variant] === scenario) : [];
  const results = await runInterleavedProbe({
    systems: [
      ...systems.map((system) => ({
        name: system.name,
        target: system,
        body: chatBody(scenario, system.model, options),
      })),
      ...variants.map((variant) => {
        const { url, body, format } = variantRequest(variant, gateway!.url, options);
        return { name: gateway!.name, variant, target: { url, headers: gateway!.headers }, body, format };
      }),
    ],
    stream,
    rounds: probe.rounds,
    sliceSeconds: probe.seconds / probe.rounds,
    warmupRequestsPerSlice: probe.sliceWarmupRequests[scenario],
    maxRequestsPerSlice: Math.ceil(probe.maxRequests / probe.rounds),
    openMachineWindow: () => new MachineWindow(() => ownProcesses(ctx)),
  });
  return results.map(({ system, ...result }) => ({ rep, system, scenario, ...result }));
}

function dbBackends(ctx: MeasureContext): number[] {
  const name = ctx.database();
  return name ? postgresBackendPids(name) : [];
}

/** Every process of the benchmark, the scratch database's backends included (for MachineWindow). */
export function ownProcesses(ctx: MeasureContext): number[] {
  return [...ctx.ownPids(), ...dbBackends(ctx)];
}
