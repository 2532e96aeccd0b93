// Leak check: a long mixed run at c=64 (half streaming, half not) with the gateway's RSS sampled each second.
import path from 'node:path';
import type { LeakResult } from './results.js';
import type { MeasureContext } from './measure.js';
import type { RunningSystem } from './systems.js';
import { chatBody } from './requests.js';
import { LoadGenerator } from './load.js';
import { RssSampler } from './proc-stats.js';
import { linearSlope, round } from './stats.js';

const WARMUP_SECONDS = 5;
/** Allowed rise of the post-GC floor from the second quarter of the run to the last one. */
const TOLERANCE = 0.1;

/**
 * RSS under steady load is a sawtooth: it climbs between major collections and drops after each. A leak shows
 * in the floors (the minima), not in the peaks, so the check compares the floor of the second quarter of the
 * run with the floor of the last quarter (the first quarter is left to heap sizing), and fits the trend of
 * the per-window floors.
 */
export function summarizeLeak(
  samples: { s: number; mb: number }[],
  seconds: number,
): Pick<LeakResult, 'startMb' | 'endMb' | 'maxMb' | 'slopeMbPerMin' | 'pass'> {
  const floor = (from: number, to: number) => {
    const inside = samples.filter((p) => p.s >= from && p.s < to).map((p) => p.mb);
    return inside.length ? Math.min(...inside) : undefined;
  };
  const quarter = seconds / 4;
  const startMb = floor(quarter, 2 * quarter);
  const endMb = floor(3 * quarter, seconds + 1);
  const windows: { s: number; mb: number }[] = [];
  for (let from = quarter; from < seconds; from += 5) {
    const mb = floor(from, from + 5);
    if (mb !== undefined) windows.push({ s: from, mb });
  }
  const slope =
    linearSlope(
      windows.map((w) => w.s),
      windows.map((w) => w.mb),
    ) ?? 0;
  return {
    startMb: round(startMb ?? 0, 1),
    endMb: round(endMb ?? 0, 1),
    maxMb: round(Math.max(0, ...samples.map((p) => p.mb)), 1),
    slopeMbPerMin: round(slope * 60, 2),
    pass: startMb !== undefined && endMb !== undefined && endMb <= startMb * (1 + TOLERANCE),
  };
}

export async function leakCheck(
  ctx: MeasureContext,
  system: RunningSystem,
  seconds: number,
  concurrency = 64,
): Promise<LeakResult> {
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
  const samples = (sampler?.samples ?? []).map((s) => ({
    s: round(s.atMs / 1000, 1),
    mb: round(s.bytes / 1024 / 1024, 1),
  }));
  return {
    seconds,
    concurrency,
    samples,
    ...summarizeLeak(samples, seconds),
    rps: round(
      summaries.reduce((n, s) => n + s.rps, 0),
      1,
    ),
    failures: summaries.reduce((n, s) => n + s.non2xx + s.errors, 0),
  };
}
