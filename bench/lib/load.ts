// Drives a load-generator process: one job at a time, `onMeasuring` called when the measured window opens
// (after the warm-up) so samplers cover exactly that window. Bounded: a job that overruns its time kills the
// process (a fresh one is forked for the next job).
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { LoadJob, LoadMessage, LoadSummary } from './load-types.js';
import type { ProcessGroup } from './processes.js';

export class LoadGenerator {
  private child?: ChildProcess;

  constructor(
    private readonly group: ProcessGroup,
    private readonly distDir: string,
    private readonly logFile: string,
  ) {}

  async run(job: LoadJob, onMeasuring: () => void = () => undefined): Promise<LoadSummary> {
    const child = this.process();
    const limitMs = (job.warmupSeconds + job.measureSeconds + 30) * 1000;
    let onMessage: (message: LoadMessage) => void = () => undefined;
    let onExit: () => void = () => undefined;
    try {
      return await new Promise<LoadSummary>((resolve, reject) => {
        const timer = setTimeout(() => {
          void this.close();
          reject(new Error(`load generator overran ${limitMs} ms`));
        }, limitMs);
        onMessage = (message) => {
          if (message.type === 'measuring') return onMeasuring();
          clearTimeout(timer);
          if (message.type === 'result') resolve(message.summary);
          else reject(new Error(`load generator failed: ${message.message}`));
        };
        onExit = () => {
          clearTimeout(timer);
          reject(new Error('load generator exited in the middle of a job'));
        };
        child.on('message', onMessage);
        child.once('exit', onExit);
        child.send(job);
      });
    } finally {
      child.off('message', onMessage);
      child.off('exit', onExit);
    }
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) await this.group.stop(child, 1_000);
  }

  private process(): ChildProcess {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) {
      this.child = this.group.fork('load-generator', path.join(this.distDir, 'bench/load-generator.js'), this.logFile);
    }
    return this.child;
  }
}
