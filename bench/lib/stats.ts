// Small statistics for benchmark samples. Percentiles use the nearest-rank method, so a reported p99
// is always a latency that was actually observed.

/** Nearest-rank percentile of unsorted samples; undefined when there are none. */
export function percentile(samples: readonly number[], p: number): number | undefined {
  if (samples.length === 0) return undefined;
  if (p < 0 || p > 100) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/** Conventional median (mean of the two middle values for an even count): used across repeated runs. */
export function median(samples: readonly number[]): number | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Least-squares slope of y over x (units of y per unit of x); undefined for fewer than two distinct x. */
export function linearSlope(xs: readonly number[], ys: readonly number[]): number | undefined {
  if (xs.length !== ys.length) throw new RangeError('xs and ys must have the same length');
  const n = xs.length;
  if (n < 2) return undefined;
  const meanX = xs.reduce((a, b) => a + b, 0) / n;
  const meanY = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - meanX) * (ys[i] - meanY);
    den += (xs[i] - meanX) ** 2;
  }
  return den === 0 ? undefined : num / den;
}

/** Rounds for display and JSON: keeps results readable without pretending to more precision than we have. */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
