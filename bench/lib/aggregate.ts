// Collapses repeated runs into one figure per (system, scenario, concurrency): the median across repetitions,
// keeping every individual value too, so reports can show both.
import type { ProbeVariant, Scenario, SystemName } from './plan.js';
import type { BenchResults, ProbeRecord } from './results.js';
import { median, round } from './stats.js';
import { DISTURBED_FOREIGN_PCT } from './machine-window.js';

export function disturbed(record: { machine?: { foreignPct: number } }): boolean {
  return (record.machine?.foreignPct ?? 0) > DISTURBED_FOREIGN_PCT;
}

/** The undisturbed records, or all of them when none is. */
function preferUndisturbed<T extends { machine?: { foreignPct: number } }>(records: T[]): T[] {
  const clean = records.filter((r) => !disturbed(r));
  return clean.length > 0 ? clean : records;
}

export interface Cell {
  system: SystemName;
  scenario: Scenario;
  concurrency: number;
  rps: number;
  /** Every repetition, disturbed ones included. */
  rpsRuns: { rps: number; disturbed: boolean }[];
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

export function cell(
  results: BenchResults,
  system: SystemName,
  scenario: Scenario,
  concurrency: number,
): Cell | undefined {
  const all = results.runs.filter(
    (r) => r.system === system && r.scenario === scenario && r.concurrency === concurrency,
  );
  if (all.length === 0) return undefined;
  const runs = preferUndisturbed(all);
  return {
    system,
    scenario,
    concurrency,
    rps: med(
      runs.map((r) => r.load.rps),
      1,
    )!,
    rpsRuns: all.map((r) => ({ rps: r.load.rps, disturbed: disturbed(r) })),
    p50: med(runs.map((r) => r.load.latency.p50))!,
    p99: med(runs.map((r) => r.load.latency.p99))!,
    rssMaxMb: Math.max(...runs.map((r) => r.rssMaxMb)),
    cpuMsPerRequest: med(runs.map((r) => r.cpuMsPerRequest))!,
    dbCpuMsPerRequest: med(runs.map((r) => r.dbCpuMsPerRequest)),
    firstChunkP50: med(runs.map((r) => r.observer?.firstChunk?.p50)),
    firstChunkP99: med(runs.map((r) => r.observer?.firstChunk?.p99)),
    failures: all.reduce((n, r) => n + r.load.non2xx + r.load.errors + (r.observer?.failures ?? 0), 0),
  };
}

/** The probes of one system's plain request, or of one Modelgate variant (from variantProbes). */
function probesOf(
  results: BenchResults,
  system: SystemName,
  scenario: Scenario,
  variant?: ProbeVariant,
): ProbeRecord[] {
  const source = variant === undefined ? results.probes : (results.variantProbes ?? []);
  return source.filter((p) => p.system === system && p.scenario === scenario && p.variant === variant);
}

export function probeCell(
  results: BenchResults,
  system: SystemName,
  scenario: Scenario,
  variant?: ProbeVariant,
): ProbeCell | undefined {
  const all = probesOf(results, system, scenario, variant);
  if (all.length === 0) return undefined;
  const probes = preferUndisturbed(all);
  return {
    system,
    scenario,
    requests: probes.reduce((n, p) => n + p.requests, 0),
    failures: all.reduce((n, p) => n + p.failures, 0),
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

/** A figure taken round by round against a reference measured in the same round: the median over the rounds. */
export interface PairedFigure {
  value: number;
  rounds: number;
  disturbedLeftOut: number;
}

/**
 * The median of per-round values, leaving out rounds in which either side was disturbed when undisturbed ones exist
 * (a pair is as disturbed as the more disturbed of its two sides; the rule runs and probes follow). A burst of
 * foreign load that covers a few rounds moves a few values, not the median.
 */
function medianOfRounds(pairs: { value: number; foreignPct: number[] }[], digits: number): PairedFigure | undefined {
  const judged = pairs.map((p) => ({ value: p.value, machine: { foreignPct: Math.max(...p.foreignPct) } }));
  const used = preferUndisturbed(judged);
  const m = median(used.map((p) => p.value));
  return m === undefined
    ? undefined
    : { value: round(m, digits), rounds: used.length, disturbedLeftOut: judged.length - used.length };
}

/**
 * Added latency of `system` over the mock from interleaved probes: per round of every repetition, the system's
 * slice figure (p50, p99, first-chunk p50 or p99 chunk delay) minus the mock's of the same round; the median of
 * those differences (medianOfRounds). Undefined when the probes carry no rounds (results from before
 * interleaving): callers fall back to the difference of the medians.
 */
export function pairedAdded(
  results: BenchResults,
  system: SystemName,
  scenario: Scenario,
  figure: 'p50' | 'p99' | 'firstChunkP50' | 'chunkDelayP99',
  /** A Modelgate variant, paired against the mock's slices of the same rounds of its scenario. */
  variant?: ProbeVariant,
): PairedFigure | undefined {
  const pairs: { value: number; foreignPct: number[] }[] = [];
  for (const probe of probesOf(results, system, scenario, variant)) {
    if (!probe.rounds) continue;
    const mock = results.probes.find((p) => p.system === 'mock' && p.scenario === scenario && p.rep === probe.rep);
    probe.rounds.forEach((own, k) => {
      const floor = mock?.rounds?.[k];
      if (own?.[figure] === undefined || floor?.[figure] === undefined) return;
      pairs.push({ value: own[figure] - floor[figure], foreignPct: [own.foreignPct ?? 0, floor.foreignPct ?? 0] });
    });
  }
  return medianOfRounds(pairs, 3);
}

/**
 * Throughput of `system` over a reference system's from the paired throughput rounds: per round, the ratio of the
 * two runs' req/s; the median of those ratios (medianOfRounds). Undefined without rounds (results from before
 * them, or a system skipped): callers fall back to the ratio of the grid's medians.
 */
export function pairedRatio(
  results: BenchResults,
  system: SystemName,
  reference: SystemName,
): PairedFigure | undefined {
  const runs = results.throughputRounds ?? [];
  const pairs: { value: number; foreignPct: number[] }[] = [];
  for (const own of runs.filter((r) => r.system === system)) {
    const other = runs.find((r) => r.system === reference && r.round === own.round);
    if (!other || other.load.rps === 0) continue;
    pairs.push({
      value: own.load.rps / other.load.rps,
      foreignPct: [own.machine?.foreignPct ?? 0, other.machine?.foreignPct ?? 0],
    });
  }
  return medianOfRounds(pairs, 2);
}

/** a ÷ b, or undefined when either is missing or b is zero. */
export function ratio(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined || b === 0 ? undefined : round(a / b, 2);
}

export function difference(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : round(a - b, 3);
}
