// The load generator, forked as its own process so it never shares an event loop with a system under test.
// It takes LoadJobs over IPC, one at a time: an autocannon warm-up, then the measured run (closed loop,
// `connections` concurrent keep-alive connections), reporting 'measuring' between the two and the summary at
// the end. It stays up between jobs, so a run does not pay a process start. Latency percentiles come from every
// 2xx response's own timing (autocannon's 'response' event, sub-millisecond), not from autocannon's histogram,
// which records whole milliseconds.
import type autocannonModule from 'autocannon';
import { requireFromBenchKit } from './lib/bench-packages.js';
import type { LoadJob, LoadMessage, LoadSummary } from './lib/load-types.js';
import { percentile } from './lib/stats.js';

const autocannon = requireFromBenchKit()('autocannon') as typeof autocannonModule;

function send(message: LoadMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, () => resolve()));
}

function run(job: LoadJob, seconds: number, latencies?: number[]): Promise<autocannonModule.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.url,
        method: 'POST',
        headers: job.headers,
        body: job.body,
        connections: job.connections,
        duration: seconds,
        timeout: 10,
        ...(job.sampleMs ? { sampleInt: job.sampleMs } : {}),
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (latencies) {
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      });
    }
  });
}

const round3 = (value: number | undefined) => Math.round((value ?? 0) * 1000) / 1000;

function summarize(result: autocannonModule.Result, latencies: number[]): LoadSummary {
  const ok = result['2xx'];
  return {
    durationS: result.duration,
    ok,
    rps: result.duration > 0 ? ok / result.duration : 0,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latency: {
      p50: round3(percentile(latencies, 50)),
      p90: round3(percentile(latencies, 90)),
      p99: round3(percentile(latencies, 99)),
      max: round3(latencies.reduce((a, b) => Math.max(a, b), 0)),
      mean: round3(latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length)),
    },
  };
}

process.on('message', (job: LoadJob) => {
  void (async () => {
    try {
      if (job.warmupSeconds > 0) await run(job, job.warmupSeconds);
      await send({ type: 'measuring' });
      const latencies: number[] = [];
      const result = await run(job, job.measureSeconds, latencies);
      await send({ type: 'result', summary: summarize(result, latencies) });
    } catch (err) {
      await send({ type: 'error', message: (err as Error).message });
    }
  })();
});
// The orchestrator closing the channel (or dying) ends this process.
process.on('disconnect', () => process.exit(0));
