// Resident memory and CPU time of processes, read from /proc (Linux). CPU comes from two snapshots around a
// measured window; RSS is sampled during it, because the peak is what a capacity plan needs.
import { readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

export function rssBytes(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** User + system CPU milliseconds the process has used so far (0 when it is gone). */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name (which may contain spaces); utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Whole-machine CPU counters (all cores, clock ticks): how busy the shared machine was during a window. */
export function machineCpuTicks(): { busy: number; total: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    // idle + iowait are the only ticks in which no work ran.
    return { busy: total - fields[3] - fields[4], total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/**
 * PIDs of the PostgreSQL backends serving `database` (their title reads "postgres: <user> <database> ..."):
 * the database's share of a request, without the backends other clients of the same server run.
 */
export function postgresBackendPids(database: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (title.split(' ').includes(database)) pids.push(Number(entry));
    } catch {
      // Gone between readdir and read.
    }
  }
  return pids;
}

/** CPU milliseconds used so far, per PID. */
export function cpuSnapshot(pids: readonly number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, cpuMs(pid)]));
}

/**
 * CPU used between two snapshots. A process present only in `after` started in between (all its CPU
 * counts); one present only in `before` ended in between (its last stretch is lost, never negative).
 */
export function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += Math.max(0, ms - (before.get(pid) ?? 0));
  return total;
}

/** Samples the RSS of one process every `intervalMs` until stopped. */
export class RssSampler {
  readonly samples: { atMs: number; bytes: number }[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly started = performance.now();

  constructor(
    private readonly pid: number,
    intervalMs = 250,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): { maxMb: number; lastMb: number } {
    clearInterval(this.timer);
    this.sample();
    const mb = this.samples.map((s) => s.bytes / 1024 / 1024);
    return { maxMb: mb.length ? Math.max(...mb) : 0, lastMb: mb.length ? mb[mb.length - 1] : 0 };
  }

  private sample(): void {
    const bytes = rssBytes(this.pid);
    if (bytes !== undefined) this.samples.push({ atMs: performance.now() - this.started, bytes });
  }
}

/** PIDs of the direct children of `parent` (the workers of `serve --workers N`), from each process's stat line. */
export function childPids(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid) is the second after the parenthesised command name.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) pids.push(Number(entry));
    } catch {
      // Gone between readdir and read.
    }
  }
  return pids;
}

/**
 * Nanoseconds on CPU of every thread of `pid` so far (/proc/<pid>/task/<tid>/schedstat): a turn takes tens of
 * milliseconds, which the 10 ms clock ticks of /proc/<pid>/stat cannot resolve. 0 when the process is gone.
 */
export function threadCpuNs(pid: number): number {
  let total = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // The thread ended between readdir and read.
      }
    }
  } catch {
    return 0;
  }
  return total;
}
