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

/**
 * A distribution-free confidence interval of the median of `samples` (order statistics: the true median lies between
 * the k-th smallest and the k-th largest sample with probability 1 - 2·P(Binomial(n, ½) < k)), at the smallest such
 * probability ≥ `confidence`. Undefined when there are too few samples for it (fewer than 6 for 95%).
 */
export function medianInterval(samples: readonly number[], confidence = 0.95): [number, number] | undefined {
  const n = samples.length;
  const sorted = [...samples].sort((a, b) => a - b);
  // P(Binomial(n, ½) ≤ j) for j = 0, 1, ...: the widest k whose tails stay within 1 - confidence.
  let tail = 0;
  let term = 0.5 ** n;
  let k = 0;
  for (let j = 0; j < n; j++) {
    tail += term;
    if (2 * tail > 1 - confidence) break;
    k = j + 1;
    term = (term * (n - j)) / (j + 1);
  }
  return k === 0 ? undefined : [sorted[k - 1], sorted[n - k]];
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
