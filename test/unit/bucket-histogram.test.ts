// BucketHistogram stands in for prom-client's Histogram on the request path: for the same observations it must render
// the same text, the same JSON, and aggregate across workers (AggregatorRegistry) the same way.
import { AggregatorRegistry, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BucketHistogram } from '../../src/observability/bucket-histogram.js';

const BOUNDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const HELP = 'Time, by provider and model.';
/** Bounds themselves (le is inclusive), between them, zero, and beyond the last. */
const VALUES = [0, 0.05, 0.051, 0.1, 0.3, 1, 2.4999, 2.5, 7, 299.9, 300, 300.1, 1234];

function both(observations: [string, string, number][]) {
  const reference = new Registry();
  const ours = new Registry();
  const histogram = new Histogram({ name: 'h_seconds', help: HELP, labelNames: ['provider', 'model'], buckets: BOUNDS, registers: [reference] });
  const bucket = new BucketHistogram('h_seconds', HELP, BOUNDS, [ours]);
  const series = new Map<string, ReturnType<BucketHistogram['series']>>();
  for (const [provider, model, value] of observations) {
    histogram.observe({ provider, model }, value);
    const key = `${provider} ${model}`;
    if (!series.has(key)) series.set(key, bucket.series({ provider, model }));
    series.get(key)!.observe(value);
  }
  return { reference, ours };
}

describe('BucketHistogram', () => {
  const observations: [string, string, number][] = [
    ...VALUES.map((v) => ['openai', 'openai/gpt-test', v] as [string, string, number]),
    ...VALUES.slice(3).map((v) => ['anthropic', 'anthropic/claude-test', v * 2] as [string, string, number]),
  ];

  it('renders the text format of prom-client histograms', async () => {
    const { reference, ours } = both(observations);
    expect(await ours.metrics()).toBe(await reference.metrics());
  });

  it('aggregates across workers like prom-client histograms', async () => {
    const a = both(observations);
    const b = both(observations.slice(5));
    const reference = AggregatorRegistry.aggregate([await a.reference.getMetricsAsJSON(), await b.reference.getMetricsAsJSON()]);
    const ours = AggregatorRegistry.aggregate([await a.ours.getMetricsAsJSON(), await b.ours.getMetricsAsJSON()]);
    expect(await ours.metrics()).toBe(await reference.metrics());
  });

  it('ignores a value that is not a finite number', async () => {
    const registry = new Registry();
    const series = new BucketHistogram('h_seconds', HELP, BOUNDS, [registry]).series({ provider: 'p', model: 'm' });
    series.observe(Number.NaN);
    series.observe(Number.POSITIVE_INFINITY);
    series.observe(0.2);
    expect(await registry.metrics()).toContain('h_seconds_count{provider="p",model="m"} 1');
  });
});
