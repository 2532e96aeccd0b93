// Runs one LoadJob in a fresh load-generator process and calls `onMeasuring` when the measured window opens
// (after the warm-up), so samplers cover exactly that window. Bounded: killed if it overruns its time.
import path from 'node:path';
import type { LoadJob, LoadMessage, LoadSummary } from './load-types.js';
import type { ProcessGroup } from './processes.js';

export async function runLoad(
  group: ProcessGroup,
  distDir: string,
  logFile: string,
  job: LoadJob,
  onMeasuring: () => void = () => undefined,
): Promise<LoadSummary> {
  const child = group.fork('load-generator', path.join(distDir, 'bench/load-generator.js'), logFile);
  const limitMs = (job.warmupSeconds + job.measureSeconds + 30) * 1000;
  try {
    return await new Promise<LoadSummary>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`load generator overran ${limitMs} ms`)), limitMs);
      child.on('message', (message: LoadMessage) => {
        if (message.type === 'measuring') onMeasuring();
        else if (message.type === 'result') {
          clearTimeout(timer);
          resolve(message.summary);
        } else {
          clearTimeout(timer);
          reject(new Error(`load generator failed: ${message.message}`));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`load generator exited (${code}) without a result`));
      });
      child.send(job);
    });
  } finally {
    await group.stop(child, 1_000);
  }
}
