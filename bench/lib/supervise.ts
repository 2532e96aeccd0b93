// Keeps a system under test running. The machine is shared: other users have stopped processes that matched
// their own patterns in the middle of a run. A system found dead is restarted (the mock on its old port, so
// the others still reach it), the interruption is recorded, and the caller repeats the configuration it hit.
import type { RunningSystem } from './systems.js';

export class Supervised {
  constructor(
    public current: RunningSystem,
    private readonly start: () => Promise<RunningSystem>,
    private readonly incidents: string[],
  ) {}

  get alive(): boolean {
    const { child } = this.current;
    return child.exitCode === null && child.signalCode === null;
  }

  /** Restarts the system when it has gone; true when it had to. */
  async ensure(): Promise<boolean> {
    if (this.alive) return false;
    const { name, pid, child } = this.current;
    const how = child.signalCode ?? `exit code ${child.exitCode}`;
    this.incidents.push(
      `${new Date().toISOString().slice(11, 19)} ${name} (pid ${pid}) ended by ${how} from outside the benchmark; restarted, and the affected configuration repeated`,
    );
    this.current = await this.start();
    return true;
  }
}

/** Restarts whichever of `systems` has gone; true when any had to. */
async function ensureAll(systems: readonly Supervised[]): Promise<boolean> {
  let restarted = false;
  for (const system of systems) restarted = (await system.ensure()) || restarted;
  return restarted;
}

/**
 * Runs `measure` against `target`, once more after restarts if it or anything it depends on (`others`,
 * e.g. the mock upstream every system forwards to) died meanwhile.
 */
export async function measureSupervised<T>(
  target: Supervised,
  measure: (current: RunningSystem) => Promise<T>,
  others: readonly Supervised[] = [],
): Promise<T> {
  const all = [target, ...others];
  await ensureAll(all);
  const result = await measure(target.current);
  if (!(await ensureAll(all))) return result;
  return measure(target.current);
}
