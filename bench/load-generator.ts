// The load generator, forked as its own process so it never shares an event loop with a system under test.
// It takes LoadJobs over IPC, one at a time: an autocannon warm-up, then the measured run (closed loop,
// `connections` concurrent keep-alive connections), reporting 'measuring' between the two and the summary at
// the end. It stays up between jobs, so a run does not pay a process start.
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

process.on('message', (job: LoadJob) => {
  void (async () => {
    try {
      if (job.warmupSeconds > 0) await run(job, job.warmupSeconds);
      await send({ type: 'measuring' });
      await send({ type: 'result', summary: summarize(await run(job, job.measureSeconds)) });
    } catch (err) {
      await send({ type: 'error', message: (err as Error).message });
    }
  })();
});
// The orchestrator closing the channel (or dying) ends this process.
process.on('disconnect', () => process.exit(0));
