// Leak check: a long mixed run at c=64 (half streaming, half not) with the gateway's RSS sampled each second.
// Growth shows as the last 10 s sitting clearly above the first 10 s once the warm-up has settled the heap.
import path from 'node:path';
import type { LeakResult } from './results.js';
import type { MeasureContext } from './measure.js';
import type { RunningSystem } from './systems.js';
import { chatBody } from './requests.js';
import { LoadGenerator } from './load.js';
import { RssSampler } from './proc-stats.js';
import { linearSlope, median, round } from './stats.js';

const WARMUP_SECONDS = 5;
const WINDOW_SECONDS = 10;
/** Allowed difference between the first and last window: V8 heaps breathe by a few MB between collections. */
const TOLERANCE = 0.1;

export async function leakCheck(ctx: MeasureContext, system: RunningSystem, seconds: number, concurrency = 64): Promise<LeakResult> {
  let sampler: RssSampler | undefined;
  const half = Math.max(1, Math.floor(concurrency / 2));
  // A second load generator beside the shared one: the two halves run at the same time.
  const second = new LoadGenerator(ctx.group, ctx.distDir, path.join(ctx.runDir, 'load-generator.log'));
  const loads = (['json', 'stream'] as const).map((scenario, i) =>
    (i === 0 ? ctx.load : second).run(
      {
        url: system.url,
        headers: { ...system.headers, 'content-type': 'application/json' },
        body: chatBody(scenario, system.model),
        connections: i === 0 ? half : concurrency - half,
        warmupSeconds: WARMUP_SECONDS,
        measureSeconds: seconds,
      },
      i === 0 ? () => (sampler = new RssSampler(system.pid, 1_000)) : undefined,
    ),
  );
  const summaries = await Promise.all(loads).finally(() => second.close());
  sampler?.stop();
  const samples = (sampler?.samples ?? []).map((s) => ({ s: round(s.atMs / 1000, 1), mb: round(s.bytes / 1024 / 1024, 1) }));
  const startMb = median(samples.filter((p) => p.s < WINDOW_SECONDS).map((p) => p.mb)) ?? 0;
  const endMb = median(samples.filter((p) => p.s > seconds - WINDOW_SECONDS).map((p) => p.mb)) ?? 0;
  const slope = linearSlope(samples.map((p) => p.s), samples.map((p) => p.mb)) ?? 0;
  return {
    seconds,
    concurrency,
    samples,
    startMb: round(startMb, 1),
    endMb: round(endMb, 1),
    maxMb: round(Math.max(0, ...samples.map((p) => p.mb)), 1),
    slopeMbPerMin: round(slope * 60, 2),
    rps: round(summaries.reduce((n, s) => n + s.rps, 0), 1),
    failures: summaries.reduce((n, s) => n + s.non2xx + s.errors, 0),
    pass: samples.length > 0 && endMb <= startMb * (1 + TOLERANCE),
  };
}
