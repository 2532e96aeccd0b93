// The c=1 probes of one scenario, interleaved: every system gets `rounds` short slices in turn instead of one long
// window of its own. On this shared VM the foreign load (mostly the hypervisor's steal time) comes in bursts of a
// few seconds; with one window per system, a burst lands on one system's probe and not on the mock's, and the
// "added latency" of a whole repetition measured the burst. Interleaved, every system samples the same moments.
// Each slice's p50 is kept, so a system's added latency can be taken round by round against the mock's slice of
// the same round (see pairedAdded in aggregate.ts).
import type { MachineShare } from './machine-window.js';
import type { ProbeVariant, SystemName } from './plan.js';
import type { StreamFormat } from './stream-formats.js';
import { ProbeClient, summarizeProbe, type ProbeSample, type ProbeSummary, type ProbeTarget } from './probe.js';
import { round } from './stats.js';

/** One slice's medians (absent when the slice had no successful request) and the machine's load during it. */
export interface RoundFigures {
  p50?: number;
  p99?: number;
  firstChunkP50?: number;
  /** p99 delay of the chunks after the first, from the mock's stamp to arrival (streams only). */
  chunkDelayP99?: number;
  /** CPU % used by processes outside the benchmark during the slice. */
  foreignPct?: number;
}

export interface InterleavedProbeSystem {
  name: SystemName;
  /** A Modelgate variant (another door or request) taking its own slices beside the plain request's. */
  variant?: ProbeVariant;
  target: ProbeTarget;
  body: string;
  /** How its streams are read (default chat). */
  format?: StreamFormat;
}

export interface InterleavedProbeOptions {
  systems: InterleavedProbeSystem[];
  stream: boolean;
  rounds: number;
  sliceSeconds: number;
  /** Unrecorded requests at the start of every slice: the system was idle during the other systems' slices. */
  warmupRequestsPerSlice: number;
  maxRequestsPerSlice: number;
  /** Opens a measurement of the machine's load over one slice. */
  openMachineWindow?: () => { close(): MachineShare };
}

export interface InterleavedProbeResult extends ProbeSummary {
  system: SystemName;
  variant?: ProbeVariant;
  /** Index = round; every system's round k lies within the same cycle through all systems. */
  rounds: RoundFigures[];
  /** Over this system's slices, weighted by their duration. */
  machine?: MachineShare;
}

/** A different order per round, so no system always runs right after the same one. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  const k = ((by % items.length) + items.length) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

export async function runInterleavedProbe(options: InterleavedProbeOptions): Promise<InterleavedProbeResult[]> {
  const state = options.systems.map((system) => ({
    system,
    client: new ProbeClient(system.target),
    samples: [] as ProbeSample[],
    failures: 0,
    firstFailure: undefined as string | undefined,
    rounds: [] as RoundFigures[],
    machine: { weightMs: 0, busy: 0, foreign: 0 },
  }));
  try {
    for (let roundIndex = 0; roundIndex < options.rounds; roundIndex++) {
      for (const s of rotate(state, roundIndex)) {
        const window = options.openMachineWindow?.();
        const started = performance.now();
        const slice = await s.client.run({
          body: s.system.body,
          stream: options.stream,
          format: s.system.format,
          warmupRequests: options.warmupRequestsPerSlice,
          maxRequests: options.maxRequestsPerSlice,
          seconds: options.sliceSeconds,
        });
        const share = window?.close();
        if (share) {
          const ms = performance.now() - started;
          s.machine.weightMs += ms;
          s.machine.busy += share.busyPct * ms;
          s.machine.foreign += share.foreignPct * ms;
        }
        s.samples.push(...slice.samples);
        s.failures += slice.failures;
        s.firstFailure ??= slice.firstFailure;
        s.rounds[roundIndex] = { ...roundFigures(slice.samples), ...(share ? { foreignPct: share.foreignPct } : {}) };
      }
    }
  } finally {
    for (const s of state) s.client.close();
  }
  return state.map((s) => ({
    system: s.system.name,
    ...(s.system.variant ? { variant: s.system.variant } : {}),
    ...summarizeProbe(s.samples, s.failures, s.firstFailure),
    rounds: s.rounds,
    ...(s.machine.weightMs > 0
      ? {
          machine: {
            busyPct: round(s.machine.busy / s.machine.weightMs, 1),
            foreignPct: round(s.machine.foreign / s.machine.weightMs, 1),
          },
        }
      : {}),
  }));
}

function roundFigures(samples: ProbeSample[]): RoundFigures {
  const { latency, firstChunk, chunkDelay } = summarizeProbe(samples, 0);
  return {
    ...(latency ? { p50: latency.p50, p99: latency.p99 } : {}),
    ...(firstChunk ? { firstChunkP50: firstChunk.p50 } : {}),
    ...(chunkDelay ? { chunkDelayP99: chunkDelay.p99 } : {}),
  };
}
