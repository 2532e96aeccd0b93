// A system stopped from outside mid-run is restarted and the configuration measured again, with a record of it.
import { describe, it, expect } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { Supervised, measureSupervised } from '../../bench/lib/supervise.js';
import type { RunningSystem } from '../../bench/lib/systems.js';

function fakeSystem(pid: number): RunningSystem & { child: { exitCode: number | null; signalCode: string | null } } {
  const child = { exitCode: null, signalCode: null } as unknown as ChildProcess & {
    exitCode: number | null;
    signalCode: string | null;
  };
  return {
    name: 'modelgate',
    child,
    pid,
    url: 'http://127.0.0.1:1/x',
    headers: {},
    model: 'm',
    logFile: '/dev/null',
  } as never;
}

describe('Supervised', () => {
  it('leaves a live system alone', async () => {
    const incidents: string[] = [];
    const system = new Supervised(fakeSystem(1), async () => fakeSystem(2), incidents);
    expect(await measureSupervised(system, async (s) => s.pid)).toBe(1);
    expect(incidents).toEqual([]);
  });

  it('restarts a system that died during a measurement and measures again', async () => {
    const incidents: string[] = [];
    const first = fakeSystem(1);
    const system = new Supervised(first, async () => fakeSystem(2), incidents);
    const measured: number[] = [];
    const result = await measureSupervised(system, async (s) => {
      measured.push(s.pid);
      if (s.pid === 1) first.child.signalCode = 'SIGINT';
      return s.pid;
    });
    expect(measured).toEqual([1, 2]);
    expect(result).toBe(2);
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatch(/modelgate \(pid 1\) ended by SIGINT from outside the benchmark/);
  });

  it('repeats a measurement when a dependency died, not only the target', async () => {
    const incidents: string[] = [];
    const mock = fakeSystem(10);
    const dependency = new Supervised(mock, async () => fakeSystem(11), incidents);
    const target = new Supervised(fakeSystem(1), async () => fakeSystem(2), incidents);
    let calls = 0;
    await measureSupervised(target, async () => {
      if (calls++ === 0) mock.child.exitCode = 1;
    }, [dependency]);
    expect(calls).toBe(2);
    expect(dependency.current.pid).toBe(11);
    expect(incidents[0]).toMatch(/exit code 1/);
  });
});
