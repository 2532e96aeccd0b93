// A Prometheus histogram counted in plain arrays. prom-client's Histogram.observe(), through a labels() child too,
// validates and hashes its label object and indexes its buckets by number-as-string keys on every call: measured
// at ~3 µs per observation under load, most of what metrics cost per request. Here a series is made once per label
// combination (bounded, see metrics.ts) and an observation is a bound search and three additions. It is registered
// in a prom-client Registry as a metric of its own: the text it renders and the JSON that `--workers` aggregates
// (by sum) are those of prom-client's own histograms.
import type { Metric, Registry } from 'prom-client';

type Labels = Readonly<Record<string, string>>;

export class HistogramSeries {
  /** Observations per bucket, not cumulative; the ones above the highest bound are only in `count`. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(readonly labels: Labels, private readonly bounds: readonly number[]) {
    this.counts = bounds.map(() => 0);
  }

  observe(value: number): void {
    // prom-client throws on these; a metric must never fail a request.
    if (!Number.isFinite(value)) return;
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    if (i < bounds.length) this.counts[i]! += 1;
    this.sum += value;
    this.count += 1;
  }
}

export class BucketHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all: HistogramSeries[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registers: readonly Registry[],
  ) {
    // A structural stand-in: the registry only calls name, get() and reset().
    for (const registry of registers) registry.registerMetric(this as unknown as Metric);
  }

  /** A new series: call once per label combination and keep it. */
  series(labels: Labels): HistogramSeries {
    const series = new HistogramSeries(labels, this.bounds);
    this.all.push(series);
    return series;
  }

  /** In prom-client's format: per series its cumulative buckets, +Inf, _sum and _count. */
  async get() {
    const bucket = `${this.name}_bucket`;
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const series of this.all) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += series.counts[i]!;
        values.push({ labels: { le, ...series.labels }, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf', ...series.labels }, value: series.count, metricName: bucket });
      values.push({ labels: { ...series.labels }, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...series.labels }, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const series of this.all) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
