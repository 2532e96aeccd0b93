// The load generator, forked as its own process so it never shares an event loop with a system under test:
// receives one LoadJob over IPC, runs an autocannon warm-up and then the measured run (closed loop, `connections`
// concurrent keep-alive connections), reports 'measuring' between the two and the summary at the end, and exits.
import autocannon from 'autocannon';
import type { LoadJob, LoadMessage, LoadSummary } from './lib/load-types.js';

function send(message: LoadMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, () => resolve()));
}

function run(job: LoadJob, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: job.url,
    method: 'POST',
    headers: job.headers,
    body: job.body,
    connections: job.connections,
    duration: seconds,
    timeout: 10,
  });
}

function summarize(result: autocannon.Result): LoadSummary {
  const ok = result['2xx'];
  return {
    durationS: result.duration,
    ok,
    rps: result.duration > 0 ? ok / result.duration : 0,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latency: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.mean,
    },
  };
}

process.once('message', (job: LoadJob) => {
  void (async () => {
    try {
      if (job.warmupSeconds > 0) await run(job, job.warmupSeconds);
      await send({ type: 'measuring' });
      await send({ type: 'result', summary: summarize(await run(job, job.measureSeconds)) });
      process.exit(0);
    } catch (err) {
      await send({ type: 'error', message: (err as Error).message });
      process.exit(1);
    }
  })();
});
