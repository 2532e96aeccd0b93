// Modelgate's probe variants (routing step, Messages and Responses doors) and the observability/workers comparisons
// in the results: how each door's stream is read, how variant figures pair with the mock's rounds, the targets they
// are held to, and the report sections, from synthetic results with known answers.
import { describe, it, expect } from 'vitest';
import { readStreamEvent } from '../../bench/lib/stream-formats.js';
import { evaluateTargets } from '../../bench/lib/targets.js';
import { renderMarkdown } from '../../bench/lib/report-markdown.js';
import { renderScaleSection } from '../../bench/lib/report-scale.js';
import { scaleRatios, type ScaleComparison, type ScaleResults } from '../../bench/lib/scale-comparison.js';
import { makePlan, type ProbeVariant, type Scenario, type SystemName } from '../../bench/lib/plan.js';
import { pairedAdded, probeCell } from '../../bench/lib/aggregate.js';
import type { BenchResults, ProbeRecord } from '../../bench/lib/results.js';

describe('stream formats', () => {
  it("reads chat chunks, Messages content_block_delta and Responses output_text.delta, and each door's end event", () => {
    expect(readStreamEvent('chat', JSON.stringify({ choices: [{ delta: { content: 'Hi' } }] }))).toEqual({
      content: 'Hi',
      end: false,
    });
    expect(readStreamEvent('chat', '[DONE]')).toEqual({ end: true });
    expect(
      readStreamEvent(
        'messages',
        JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
      ),
    ).toEqual({ content: 'Hi', end: false });
    // Thinking text is not the answer's content.
    expect(
      readStreamEvent(
        'messages',
        JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hm' } }),
      ).content,
    ).toBeUndefined();
    expect(readStreamEvent('messages', JSON.stringify({ type: 'message_stop' }))).toEqual({
      content: undefined,
      end: true,
    });
    expect(readStreamEvent('responses', JSON.stringify({ type: 'response.output_text.delta', delta: 'Hi' }))).toEqual({
      content: 'Hi',
      end: false,
    });
    expect(readStreamEvent('responses', JSON.stringify({ type: 'response.completed', response: {} }))).toEqual({
      content: undefined,
      end: true,
    });
    // Another door's events carry nothing in a format, and no format crashes on junk.
    expect(
      readStreamEvent(
        'responses',
        JSON.stringify({ type: 'content_block_delta', delta: { type: 'text_delta', text: 'Hi' } }),
      ),
    ).toEqual({ content: undefined, end: false });
    expect(readStreamEvent('messages', '[DONE]')).toEqual({ content: undefined, end: false });
    expect(readStreamEvent('responses', 'null')).toEqual({ content: undefined, end: false });
  });
});

function probe(
  system: SystemName,
  scenario: Scenario,
  p50: number,
  rounds: number[],
  variant?: ProbeVariant,
): ProbeRecord {
  const stream = scenario === 'stream';
  return {
    rep: 1,
    system,
    scenario,
    ...(variant ? { variant } : {}),
    requests: 100,
    failures: 0,
    latency: { p50, p99: p50 * 3, max: p50 * 3 },
    ...(stream
      ? { firstChunk: { p50, p99: p50 * 2, max: p50 * 2 }, chunkDelay: { p50: 0.1, p99: 0.2, max: 0.3 } }
      : {}),
    rounds: rounds.map((v) => (stream ? { p50: 20, firstChunkP50: v, chunkDelayP99: 0.2 } : { p50: v, p99: v * 3 })),
  };
}

function results(): BenchResults {
  return {
    schema: 'modelgate-bench/1',
    mode: 'full',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:10:00.000Z',
    durationS: 600,
    machine: { cpus: 2, cpuModel: 'test cpu', memoryGb: 4, node: 'v20', kernel: '6', loadAverageAtStart: [0, 0, 0] },
    plan: makePlan('full', {}),
    systems: ['mock', 'modelgate'],
    skipped: [],
    incidents: [],
    runs: [],
    probes: [
      probe('mock', 'json', 0.2, [0.2, 0.2, 0.2]),
      probe('modelgate', 'json', 0.8, [0.8, 0.9, 0.8]),
      probe('mock', 'stream', 0.5, [0.5, 0.5, 0.5]),
      probe('modelgate', 'stream', 1.1, [1.1, 1.0, 1.2]),
    ],
    variantProbes: [
      probe('modelgate', 'json', 0.95, [0.9, 1.0, 5], 'routed'),
      probe('modelgate', 'stream', 1.3, [1.2, 1.4, 1.3], 'messages'),
      probe('modelgate', 'stream', 2.5, [2.5, 2.6, 2.4], 'responses'),
    ],
    targets: [],
  };
}

describe('probe variants', () => {
  it("pair with the mock's slices of the same rounds, and stay out of the plain request's figures", () => {
    const r = results();
    // Routed rounds 0.9, 1.0, 5 minus the mock's 0.2 each: median 0.8 (a stalled round does not move it).
    expect(pairedAdded(r, 'modelgate', 'json', 'p50', 'routed')).toEqual({
      value: 0.8,
      rounds: 3,
      disturbedLeftOut: 0,
    });
    expect(pairedAdded(r, 'modelgate', 'stream', 'firstChunkP50', 'messages')?.value).toBe(0.8);
    expect(pairedAdded(r, 'modelgate', 'stream', 'firstChunkP50', 'responses')?.value).toBe(2);
    expect(pairedAdded(r, 'modelgate', 'json', 'p50')?.value).toBe(0.6);
    expect(probeCell(r, 'modelgate', 'json')?.p50).toBe(0.8);
    expect(probeCell(r, 'modelgate', 'json', 'routed')?.p50).toBe(0.95);
    expect(probeCell(r, 'modelgate', 'json', 'messages')).toBeUndefined();
  });

  it("are held to the plain request's targets: routing p50 ≤ 1 ms and p99 ≤ 5 ms, first content event of each door p50 ≤ 1 ms", () => {
    const r = results();
    const byId = Object.fromEntries(evaluateTargets(r).map((t) => [t.id, t]));
    expect(byId['routed-added-latency-p50']).toMatchObject({ pass: true });
    expect(byId['routed-added-latency-p50'].measured).toMatch(/^0\.800 ms \(median of 3 paired rounds/);
    // Slice p99s 2.7, 3, 15 minus the mock's 0.6: median 2.4.
    expect(byId['routed-added-latency-p99']).toMatchObject({ pass: true });
    expect(byId['routed-added-latency-p99'].measured).toMatch(/^2\.400 ms/);
    expect(byId['messages-first-event-added-p50']).toMatchObject({ pass: true });
    expect(byId['responses-first-event-added-p50']).toMatchObject({ pass: false });
    expect(byId['responses-first-event-added-p50'].measured).toMatch(/^2\.000 ms/);
    // A door whose probe streams failed fails its target whatever the timing.
    r.variantProbes![1] = { ...r.variantProbes![1], failures: 2 };
    expect(evaluateTargets(r).find((t) => t.id === 'messages-first-event-added-p50')).toMatchObject({
      pass: false,
      measured: expect.stringMatching(/2 failed$/),
    });
    // Not measured (older results, quick runs without variants): no verdict.
    delete r.variantProbes;
    expect(evaluateTargets(r).find((t) => t.id === 'routed-added-latency-p50')).toMatchObject({
      pass: null,
      measured: expect.stringMatching(/^not measured/),
    });
  });

  it('are reported beside the single-endpoint and chat-stream figures, and listed with every probe', () => {
    const r = results();
    r.targets = evaluateTargets(r);
    const md = renderMarkdown(r, 'x.svg');
    expect(md).toContain('## Routing step and front doors at c=1');
    expect(md).toContain('| Modelgate, one endpoint | 0.800 | 2.400 | +0.600 | +0.600 | +1.800 | 100 |');
    expect(md).toContain(
      '| Modelgate, model with 3 endpoints (provider.order + models[]) | 0.950 | 2.850 | +0.750 | +0.800 | +2.400 | 100 |',
    );
    expect(md).toContain(
      '| Modelgate, POST /chat/completions | 1.100 | 2.200 | +0.600 | +0.600 | 0.200 | +0.000 | 100 |',
    );
    expect(md).toContain('| Modelgate, POST /messages | 1.300 | 2.600 | +0.800 | +0.800 | 0.200 | +0.000 | 100 |');
    expect(md).toContain('| 1 | Modelgate, POST /responses | streaming (SSE, 20 chunks) | 100 | 0 |');
    delete r.variantProbes;
    expect(renderMarkdown(r, 'x.svg')).not.toContain('Routing step and front doors');
  });
});

function comparison(id: ScaleComparison['id'], base: number[], other: number[], foreign = 0): ScaleComparison {
  const runs = (rps: number[]) =>
    rps.map((v, i) => ({
      round: i + 1,
      rps: v,
      p99: 10,
      cpuMsPerRequest: 0.4,
      failures: 0,
      machine: { busyPct: 90, foreignPct: foreign },
    }));
  return {
    id,
    title:
      id === 'observability'
        ? 'Metrics and tracing on vs off (non-streaming, c=16)'
        : 'serve --workers 2 vs 1 (non-streaming, c=64, Redis limits)',
    concurrency: id === 'observability' ? 16 : 64,
    variants: [
      { name: id === 'observability' ? 'off' : '--workers 1', runs: runs(base) },
      { name: id === 'observability' ? 'metrics + tracing' : '--workers 2', runs: runs(other) },
    ],
  };
}

describe('observability and workers comparison', () => {
  const scale = (observability: ScaleComparison): ScaleResults => ({
    rounds: 3,
    steadyStateSeconds: 15,
    warmupSeconds: 1.5,
    measureSeconds: 6,
    otlpBatches: 42,
    metricsScrapes: 18,
    comparisons: [observability, comparison('workers', [1500, 1600, 1400], [2400, 2500, 2300], 30)],
  });

  it("takes the median of the rounds' ratios (runs seconds apart), beside the ratio of the medians", () => {
    // Rounds: 0.99, 0.95, 0.5 (a burst on one run) → 0.95; medians 1900 / 2000 → 0.95.
    expect(scaleRatios(comparison('observability', [2000, 2000, 1800], [1980, 1900, 900]))).toEqual({
      perRound: [0.99, 0.95, 0.5],
      median: 0.95,
      disturbedLeftOut: 0,
      medianOfMedians: 0.95,
    });
    expect(scaleRatios(comparison('observability', [], []))).toEqual({ perRound: [], disturbedLeftOut: 0 });
  });

  it('gives the paired median its 95% confidence interval from 6 rounds on', () => {
    const base = Array.from({ length: 12 }, () => 2000);
    const other = [1900, 1920, 1940, 1950, 1960, 1970, 1980, 1990, 2000, 2010, 1800, 2100];
    // Ratios sorted: 0.9, 0.95, 0.96, ..., 1.005, 1.05: the 3rd and 10th.
    const ratios = scaleRatios(comparison('observability', base, other));
    expect(ratios.interval).toEqual([0.96, 1]);
    expect(ratios.median).toBeCloseTo(0.9825, 2);
    expect(renderScaleSection({ ...scale(comparison('observability', base, other)), rounds: 12 })).toContain(
      '(paired, 95% confidence interval 96.0%–100.0%; per round',
    );
    expect(scaleRatios(comparison('observability', base.slice(0, 5), other.slice(0, 5)))).not.toHaveProperty(
      'interval',
    );
  });

  it('leaves out rounds in which either run was disturbed, unless every round was', () => {
    const c = comparison('observability', [2000, 2000, 2000], [1990, 1000, 1960]);
    // Round 2's baseline ran under 40% foreign load: the median of rounds 1 and 3 remains.
    c.variants[0].runs[1].machine = { busyPct: 100, foreignPct: 40 };
    expect(scaleRatios(c)).toMatchObject({ perRound: [0.995, 0.5, 0.98], median: 0.988, disturbedLeftOut: 1 });
    // All disturbed (the workers fixture): none left out.
    expect(scaleRatios(comparison('workers', [1000, 1000, 1000], [1500, 1600, 1400], 30))).toMatchObject({
      median: 1.5,
      disturbedLeftOut: 0,
    });
  });

  it('passes the observability target at ≥ 97% of the req/s with both on, fails it under, and has no verdict without the comparison', () => {
    const r = results();
    r.scale = scale(comparison('observability', [2000, 2000, 2000], [1960, 1950, 1990]));
    expect(evaluateTargets(r).find((t) => t.id === 'observability-cost')).toMatchObject({
      pass: true,
      measured: expect.stringMatching(/^98\.0% \(median of 3 paired rounds/),
    });
    r.scale = scale(comparison('observability', [2000, 2000, 2000], [1900, 1920, 1990]));
    expect(evaluateTargets(r).find((t) => t.id === 'observability-cost')).toMatchObject({
      pass: false,
      measured: expect.stringMatching(/^96\.0%/),
    });
    delete r.scale;
    expect(evaluateTargets(r).find((t) => t.id === 'observability-cost')).toMatchObject({
      pass: null,
      measured: 'not measured',
    });
  });

  it('is a section of the full report and the whole of the standalone one, variants side by side', () => {
    const r = results();
    r.scale = scale(comparison('observability', [2000, 2000, 2000], [1960, 1950, 1990]));
    r.targets = evaluateTargets(r);
    const md = renderMarkdown(r, 'x.svg');
    expect(md).toContain('## Observability cost and workers (Modelgate)');
    expect(md).toContain('(18 scrapes answered)');
    expect(md).toContain('(42 batches received)');
    expect(md).toContain('| off | 2000 | 10.00 | 0.400 | 0 | 2000, 2000, 2000 |');
    expect(md).toContain('metrics + tracing ÷ off: **98.0%** of the req/s');
    expect(md).toContain('| --workers 2 | 2400 | 10.00 | 0.400 | 0 | 2400†, 2500†, 2300† |');
    expect(md).toContain('--workers 2 ÷ --workers 1: **160.0%** of the req/s');
    expect(renderScaleSection(r.scale).startsWith('## Observability cost and workers')).toBe(true);
    delete r.scale;
    expect(renderMarkdown(r, 'x.svg')).not.toContain('Observability cost and workers');
  });
});
