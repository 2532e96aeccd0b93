// Collapses repeated runs into one figure per (system, scenario, concurrency): the median across repetitions,
// keeping every individual value too, so reports can show both.
import type { Scenario, SystemName } from './plan.js';
import type { BenchResults } from './results.js';
import { median, round } from './stats.js';

export interface Cell {
  system: SystemName;
  scenario: Scenario;
  concurrency: number;
  rps: number;
  rpsRuns: number[];
  p50: number;
  p99: number;
  rssMaxMb: number;
  cpuMsPerRequest: number;
  dbCpuMsPerRequest?: number;
  firstChunkP50?: number;
  firstChunkP99?: number;
  /** Non-2xx responses and connection errors over all repetitions. */
  failures: number;
}

export interface ProbeCell {
  system: SystemName;
  scenario: Scenario;
  requests: number;
  failures: number;
  p50?: number;
  p99?: number;
  firstChunkP50?: number;
  firstChunkP99?: number;
  firstChunkDelayP50?: number;
  firstChunkDelayP99?: number;
  chunkDelayP50?: number;
  chunkDelayP99?: number;
  chunkDelayMax?: number;
}

function med(values: (number | undefined)[], digits = 3): number | undefined {
  const present = values.filter((v): v is number => v !== undefined);
  const m = median(present);
  return m === undefined ? undefined : round(m, digits);
}

export function cell(results: BenchResults, system: SystemName, scenario: Scenario, concurrency: number): Cell | undefined {
  const runs = results.runs.filter((r) => r.system === system && r.scenario === scenario && r.concurrency === concurrency);
  if (runs.length === 0) return undefined;
  return {
    system,
    scenario,
    concurrency,
    rps: med(runs.map((r) => r.load.rps), 1)!,
    rpsRuns: runs.map((r) => r.load.rps),
    p50: med(runs.map((r) => r.load.latency.p50))!,
    p99: med(runs.map((r) => r.load.latency.p99))!,
    rssMaxMb: Math.max(...runs.map((r) => r.rssMaxMb)),
    cpuMsPerRequest: med(runs.map((r) => r.cpuMsPerRequest))!,
    dbCpuMsPerRequest: med(runs.map((r) => r.dbCpuMsPerRequest)),
    firstChunkP50: med(runs.map((r) => r.observer?.firstChunk?.p50)),
    firstChunkP99: med(runs.map((r) => r.observer?.firstChunk?.p99)),
    failures: runs.reduce((n, r) => n + r.load.non2xx + r.load.errors + (r.observer?.failures ?? 0), 0),
  };
}

export function probeCell(results: BenchResults, system: SystemName, scenario: Scenario): ProbeCell | undefined {
  const probes = results.probes.filter((p) => p.system === system && p.scenario === scenario);
  if (probes.length === 0) return undefined;
  return {
    system,
    scenario,
    requests: probes.reduce((n, p) => n + p.requests, 0),
    failures: probes.reduce((n, p) => n + p.failures, 0),
    p50: med(probes.map((p) => p.latency?.p50)),
    p99: med(probes.map((p) => p.latency?.p99)),
    firstChunkP50: med(probes.map((p) => p.firstChunk?.p50)),
    firstChunkP99: med(probes.map((p) => p.firstChunk?.p99)),
    firstChunkDelayP50: med(probes.map((p) => p.firstChunkDelay?.p50)),
    firstChunkDelayP99: med(probes.map((p) => p.firstChunkDelay?.p99)),
    chunkDelayP50: med(probes.map((p) => p.chunkDelay?.p50)),
    chunkDelayP99: med(probes.map((p) => p.chunkDelay?.p99)),
    chunkDelayMax: med(probes.map((p) => p.chunkDelay?.max)),
  };
}

/** a ÷ b, or undefined when either is missing or b is zero. */
export function ratio(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined || b === 0 ? undefined : round(a / b, 2);
}

export function difference(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : round(a - b, 3);
}
