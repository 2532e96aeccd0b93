// The shape of results/<mode>.json: every run and probe as measured, plus the derived checks.
import type { CacheProbeRecord } from './cache-probe.js';
import type { Plan, ProbeVariant, Scenario, SystemName } from './plan.js';
import type { ScaleResults } from './scale-comparison.js';
import type { LaneResults } from './lane-comparison.js';
import type { LoadSummary } from './load-types.js';
import type { ProbeSummary } from './probe.js';
import type { AccountingSummary } from './scratch-database.js';
import type { ProfileSummary } from './cpu-profile.js';
import type { MachineShare } from './machine-window.js';
import type { RoundFigures } from './interleaved-probe.js';

export interface RunRecord {
  rep: number;
  system: SystemName;
  scenario: Scenario;
  concurrency: number;
  load: LoadSummary;
  rssMaxMb: number;
  /** CPU of the system's own process per completed request. */
  cpuMsPerRequest: number;
  /** Modelgate only: CPU of all PostgreSQL processes per completed request. */
  dbCpuMsPerRequest?: number;
  /** Whole machine during the window: busy % of all cores, and the CPU % used by processes outside this benchmark. */
  machine?: MachineShare;
  /** Streams at c > 1: one extra probe connection measuring time to first chunk under this load. */
  observer?: ProbeSummary;
}

/** A run of the paired throughput rounds (plan.throughputRounds): `round` counts from 1 over the whole benchmark. */
export interface RoundRunRecord extends RunRecord {
  round: number;
}

export interface ProbeRecord extends ProbeSummary {
  rep: number;
  system: SystemName;
  scenario: Scenario;
  /** Set on Modelgate variants (BenchResults.variantProbes). */
  variant?: ProbeVariant;
  machine?: MachineShare;
  /** Interleaved probes: each slice's p50s, by round (runs before interleaving have none). */
  rounds?: RoundFigures[];
}

export interface LeakResult {
  seconds: number;
  concurrency: number;
  samples: { s: number; mb: number }[];
  /** Post-GC floors (minimum RSS) of the second and of the last quarter of the run. */
  startMb: number;
  endMb: number;
  maxMb: number;
  slopeMbPerMin: number;
  rps: number;
  failures: number;
  pass: boolean;
}

export interface TargetResult {
  id: string;
  description: string;
  measured: string;
  /** null when the run did not measure it (quick mode, or a system was skipped). */
  pass: boolean | null;
}

export interface BenchResults {
  schema: 'modelgate-bench/1';
  mode: Plan['mode'];
  startedAt: string;
  finishedAt: string;
  durationS: number;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    kernel: string;
    loadAverageAtStart: number[];
  };
  git?: { commit: string; dirty: boolean };
  plan: Plan;
  systems: SystemName[];
  skipped: { system: SystemName; reason: string }[];
  /** Interruptions from outside the benchmark (a system stopped by someone else) and how they were handled. */
  incidents: string[];
  runs: RunRecord[];
  probes: ProbeRecord[];
  /**
   * Modelgate's probe variants (plan.probe.variants), measured in the same interleaved slices as `probes` of their
   * scenario, so their rounds pair with the mock's; kept apart so every per-system figure stays the plain request's.
   * Absent in older results.
   */
  variantProbes?: ProbeRecord[];
  /** Absent in results from before paired throughput rounds. */
  throughputRounds?: RoundRunRecord[];
  /** Modelgate's streaming runs through POST /responses (plan.responsesStream); absent in older results. */
  responsesRuns?: RunRecord[];
  /** The same through POST /messages (Anthropic Messages door), at the same concurrency; absent in older results. */
  messagesRuns?: RunRecord[];
  /** The response cache at c=1, a hit against a miss (plan.responseCache); absent in older results. */
  responseCache?: CacheProbeRecord[];
  /** Observability cost and workers (plan.scale); absent in quick runs and older results. */
  scale?: ScaleResults;
  /** Small and agent-sized requests per lane against the bare proxy (plan.lanes); absent in quick runs and older results. */
  lanes?: LaneResults;
  leak?: LeakResult;
  profile?: ProfileSummary;
  accounting?: AccountingSummary;
  gatewayLog?: { lines: number; errors: number; warnings: number };
  targets: TargetResult[];
}
