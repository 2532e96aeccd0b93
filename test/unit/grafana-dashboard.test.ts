// The shipped Grafana dashboard only queries series the gateway exports: a renamed metric fails here, not on an
// operator's empty panel.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GatewayMetrics } from '../../src/observability/metrics.js';

const dashboard = JSON.parse(readFileSync('src/observability/grafana-dashboard.json', 'utf8')) as {
  panels: { title: string; targets: { expr: string }[] }[];
};

describe('Grafana dashboard', () => {
  it('queries only metrics that GET /metrics exposes', async () => {
    const metrics = new GatewayMetrics(
      { settlementQueueDepth: () => 0, creditLeases: () => 0, upstreamLoad: () => [] },
      { redis: true },
    );
    const exported = new Set((await metrics.registry.getMetricsAsJSON()).map((metric) => metric.name));
    const queried = new Set<string>();
    for (const panel of dashboard.panels) {
      for (const target of panel.targets) {
        for (const [name] of target.expr.matchAll(/\b(modelgate|nodejs|process)_[a-z0-9_]+/g)) {
          queried.add(name.replace(/_(bucket|sum|count)$/, ''));
        }
      }
    }
    expect(queried.size).toBeGreaterThan(8);
    expect([...queried].filter((name) => !exported.has(name))).toEqual([]);
  });
});
