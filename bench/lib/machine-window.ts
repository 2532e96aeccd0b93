// How busy the shared machine was during a measured window, and how much of that was work outside this
// benchmark ("foreign"): the caveat each figure carries, and what marks a run as disturbed.
import os from 'node:os';
import { cpuDelta, cpuSnapshot, machineCpuTicks } from './proc-stats.js';
import { round } from './stats.js';

/**
 * A run during which processes outside the benchmark used more than this share of the machine's CPU is
 * "disturbed": it is still reported, but left out of the median when an undisturbed repetition exists.
 */
export const DISTURBED_FOREIGN_PCT = 25;

export interface MachineShare {
  busyPct: number;
  foreignPct: number;
}

export class MachineWindow {
  private readonly ticks = machineCpuTicks();
  private readonly own: Map<number, number>;
  private readonly started = performance.now();

  /** `ownPids` lists every process of the benchmark (orchestrator, systems, load generator, database backends). */
  constructor(private readonly ownPids: () => number[]) {
    this.own = cpuSnapshot(ownPids());
  }

  close(): MachineShare {
    const ticks = machineCpuTicks();
    const ownCpuMs = cpuDelta(this.own, cpuSnapshot(this.ownPids()));
    const wallMs = performance.now() - this.started;
    const total = ticks.total - this.ticks.total;
    if (total <= 0 || wallMs <= 0) return { busyPct: 0, foreignPct: 0 };
    const busyPct = ((ticks.busy - this.ticks.busy) / total) * 100;
    const ownPct = (ownCpuMs / (wallMs * os.cpus().length)) * 100;
    return { busyPct: round(busyPct, 1), foreignPct: round(Math.max(0, busyPct - ownPct), 1) };
  }
}
