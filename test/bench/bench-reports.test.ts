// Profile summaries, targets and the rendered reports, from synthetic results with known answers.
import { describe, it, expect } from 'vitest';
import { summarizeProfile, moduleOf, type CpuProfile } from '../../bench/lib/cpu-profile.js';
import { evaluateTargets } from '../../bench/lib/targets.js';
import { renderMarkdown } from '../../bench/lib/report-markdown.js';
import { renderSvg } from '../../bench/lib/report-svg.js';
import { makePlan, type Scenario, type SystemName } from '../../bench/lib/plan.js';
import type { BenchResults, RunRecord, ProbeRecord } from '../../bench/lib/results.js';
import { summarizeLeak } from '../../bench/lib/leak-check.js';
import { cell, pairedAdded, pairedRatio } from '../../bench/lib/aggregate.js';

describe('cpu profile summary', () => {
  const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)') },
      { id: 2, callFrame: frame('(idle)') },
      { id: 3, callFrame: frame('compile', 'file:///app/node_modules/kysely/dist/esm/q.js', 9) },
      { id: 4, callFrame: frame('handle', 'file:///app/dist/src/http/x.js', 4) },
    ],
    startTime: 1_000,
    endTime: 1_000 + 7 * 100,
    // Samples at 1000, 1100, … 1600 µs; each lasts until the next one: 100 µs apiece.
    samples: [2, 2, 3, 3, 3, 4, 2],
    timeDeltas: [0, 100, 100, 100, 100, 100, 100],
  };

  it('attributes self time per function and module, as % of non-idle time', () => {
    const summary = summarizeProfile(profile, 'p.cpuprofile');
    expect(summary.window).toBe('whole');
    expect(summary.top.map((t) => [t.functionName, t.selfPct])).toEqual([
      ['compile', 75],
      ['handle', 25],
    ]);
    expect(summary.top[0].location).toBe('kysely/dist/esm/q.js:10');
    expect(summary.modules.map((m) => m.module)).toEqual(['kysely', 'modelgate src/http/x.js']);
  });

  it('restricts to a load window when given one, and falls back when it matches nothing', () => {
    const windowed = summarizeProfile(profile, 'p', 25, { fromUs: 1_350, toUs: 1_550 });
    expect(windowed.window).toBe('load');
    expect(windowed.top.map((t) => t.functionName)).toEqual(['compile', 'handle']);
    expect(windowed.top[0].selfPct).toBe(50);
    expect(summarizeProfile(profile, 'p', 25, { fromUs: 9e9, toUs: 9e9 + 1 }).window).toBe('whole');
  });

  it('names modules by package, Node internals or our own file', () => {
    expect(moduleOf('file:///r/node_modules/@scope/pkg/x.js')).toBe('@scope/pkg');
    expect(moduleOf('node:internal/streams/readable')).toBe('node:internal/streams');
    expect(moduleOf('node:events')).toBe('node:events');
    expect(moduleOf('', '(garbage collector)')).toBe('(garbage collector)');
    expect(moduleOf('', 'writev')).toBe('(native)');
  });
});

function run(system: SystemName, scenario: Scenario, concurrency: number, rps: number, rep = 1): RunRecord {
  return {
    rep,
    system,
    scenario,
    concurrency,
    rssMaxMb: system === 'modelgate' ? 150 : 80,
    cpuMsPerRequest: 0.3,
    load: {
      durationS: 5,
      ok: rps * 5,
      rps,
      non2xx: 0,
      errors: 0,
      timeouts: 0,
      latency: { p50: 2, p90: 3, p99: 5, max: 9, mean: 2.1 },
    },
  };
}

function probe(system: SystemName, scenario: Scenario, p50: number, p99: number): ProbeRecord {
  return {
    rep: 1,
    system,
    scenario,
    requests: 100,
    failures: 0,
    latency: { p50, p99, max: p99 },
    ...(scenario === 'stream'
      ? { firstChunk: { p50, p99, max: p99 }, chunkDelay: { p50: 0.1, p99: p99 / 10, max: p99 / 10 } }
      : {}),
  };
}

function results(): BenchResults {
  const systems: SystemName[] = ['mock', 'passthrough', 'modelgate', 'portkey'];
  const rps: Record<SystemName, number> = { mock: 9000, passthrough: 2500, modelgate: 2000, portkey: 450 };
  const plan = makePlan('full', {});
  return {
    schema: 'modelgate-bench/1',
    mode: 'full',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:10:00.000Z',
    durationS: 600,
    machine: { cpus: 2, cpuModel: 'test cpu', memoryGb: 4, node: 'v20', kernel: '6', loadAverageAtStart: [0, 0, 0] },
    plan,
    systems,
    skipped: [],
    incidents: [],
    runs: plan.grid.flatMap(({ scenario, concurrency }) =>
      systems.flatMap((s) => [run(s, scenario, concurrency, rps[s]), run(s, scenario, concurrency, rps[s] + 100, 2)]),
    ),
    probes: systems.flatMap((s) => [
      probe(s, 'json', s === 'modelgate' ? 1.2 : 0.4, 3),
      probe(s, 'stream', s === 'portkey' ? 26 : 0.9, 5),
    ]),
    targets: [],
  };
}

describe('targets', () => {
  it('compares medians measured in the same run against the issue targets', () => {
    const byId = Object.fromEntries(evaluateTargets(results()).map((t) => [t.id, t]));
    // modelgate 2050 vs portkey 500 req/s: 4.1×; vs pass-through 2550: 80%.
    expect(byId['throughput-vs-portkey'].pass).toBe(true);
    expect(byId['throughput-vs-portkey'].measured).toMatch(/^4\.10×/);
    expect(byId['throughput-vs-passthrough'].pass).toBe(true);
    expect(byId['added-latency-p50'].measured).toMatch(/^0\.800 ms/);
    expect(byId['added-latency-p50'].pass).toBe(true);
    expect(byId['rss-c64'].pass).toBe(true);
    expect(byId['no-leak'].pass).toBeNull();
    expect(byId.metering.pass).toBeNull();
  });

  it('fails a target the figures miss', () => {
    const r = results();
    r.probes = r.probes.map((p) =>
      p.system === 'modelgate' && p.scenario === 'json' ? { ...p, latency: { p50: 4, p99: 30, max: 30 } } : p,
    );
    const byId = Object.fromEntries(evaluateTargets(r).map((t) => [t.id, t]));
    expect(byId['added-latency-p50'].pass).toBe(false);
    expect(byId['added-latency-p99'].pass).toBe(false);
  });
});

describe('paired added latency (interleaved probes)', () => {
  /** One repetition's json and stream probes of `system`, with the given slice p50s by round. */
  const withRounds = (r: BenchResults, system: SystemName, rep: number, p50s: (number | undefined)[]) => {
    for (const scenario of ['json', 'stream'] as const) {
      const base = r.probes.find((p) => p.system === system && p.scenario === scenario)!;
      const rounds = p50s.map((v) =>
        v === undefined ? {} : scenario === 'stream' ? { p50: 20, firstChunkP50: v } : { p50: v },
      );
      r.probes = r.probes.filter((p) => !(p.system === system && p.scenario === scenario && p.rep === rep));
      r.probes.push({ ...base, rep, rounds });
    }
  };

  it('takes the median of round-by-round differences, so a burst in a few rounds does not move it', () => {
    const r = results();
    // Rep 1: a burst hits the gateway's round 2 and the mock's round 3; round 1 has no gateway sample.
    withRounds(r, 'mock', 1, [0.1, 0.1, 0.1, 5, 0.1]);
    withRounds(r, 'modelgate', 1, [0.7, undefined, 9, 0.75, 0.8]);
    // Rep 2: quiet.
    withRounds(r, 'mock', 2, [0.2, 0.2]);
    withRounds(r, 'modelgate', 2, [0.8, 0.85]);
    // Differences: 0.6, 8.9, -4.25, 0.7 (rep 1) and 0.6, 0.65 (rep 2) → median (0.6 + 0.65) / 2.
    expect(pairedAdded(r, 'modelgate', 'json', 'p50')).toEqual({ value: 0.625, rounds: 6, disturbedLeftOut: 0 });
    expect(pairedAdded(r, 'modelgate', 'stream', 'firstChunkP50')).toEqual({
      value: 0.625,
      rounds: 6,
      disturbedLeftOut: 0,
    });
    const byId = Object.fromEntries(evaluateTargets(r).map((t) => [t.id, t]));
    expect(byId['added-latency-p50'].measured).toMatch(/^0\.625 ms \(median of 6 paired rounds/);
    expect(byId['first-chunk-added-p50'].measured).toMatch(/^0\.625 ms \(median of 6 paired rounds/);
    const md = renderMarkdown({ ...r, targets: evaluateTargets(r) }, 'x.svg');
    expect(md).toContain(
      '| 1 | Modelgate | non-streaming | 100 | 0 | 1.200 | 3.000 | — | — | 0.70 — 9.00 0.75 0.80 | — |',
    );
  });

  it('leaves out rounds in which either slice was disturbed, unless no round was undisturbed', () => {
    const r = results();
    withRounds(r, 'mock', 1, [0.1, 0.1, 0.1]);
    withRounds(r, 'modelgate', 1, [0.7, 3, 2.5]);
    const json = (system: SystemName) => r.probes.find((p) => p.system === system && p.scenario === 'json')!;
    // Round 1: the gateway's slice disturbed; round 2: the mock's.
    json('modelgate').rounds![1].foreignPct = 40;
    json('mock').rounds![2].foreignPct = 30;
    json('mock').rounds![0].foreignPct = 10;
    expect(pairedAdded(r, 'modelgate', 'json', 'p50')).toEqual({ value: 0.6, rounds: 1, disturbedLeftOut: 2 });
    expect(evaluateTargets(r).find((t) => t.id === 'added-latency-p50')!.measured).toMatch(
      /^0\.600 ms \(median of 1 paired rounds, 2 disturbed left out;/,
    );
    json('mock').rounds![0].foreignPct = 26;
    // All disturbed: all three count (differences 0.6, 2.9, 2.4).
    expect(pairedAdded(r, 'modelgate', 'json', 'p50')).toEqual({ value: 2.4, rounds: 3, disturbedLeftOut: 0 });
  });

  it('takes the p99 target from paired slice p99s too, so one stalled slice cannot decide it', () => {
    const r = results();
    const json = (system: SystemName) => r.probes.find((p) => p.system === system && p.scenario === 'json')!;
    // Pooled, one stall in the gateway's third slice makes its p99 20 ms against the mock's 1.
    json('mock').latency = { p50: 0.2, p99: 1, max: 2 };
    json('modelgate').latency = { p50: 1, p99: 20, max: 25 };
    json('mock').rounds = [0.9, 1, 1.1, 0.8].map((p99) => ({ p50: 0.2, p99 }));
    json('modelgate').rounds = [3, 3.4, 20, 2.9].map((p99) => ({ p50: 1, p99 }));
    expect(pairedAdded(r, 'modelgate', 'json', 'p99')).toEqual({ value: 2.25, rounds: 4, disturbedLeftOut: 0 });
    const p99 = () => evaluateTargets(r).find((t) => t.id === 'added-latency-p99')!;
    expect(p99().pass).toBe(true);
    expect(p99().measured).toBe('2.250 ms (median of 4 paired rounds; medians of repetitions 20.000 vs 1.000 ms)');
    const md = renderMarkdown({ ...r, targets: evaluateTargets(r) }, 'x.svg');
    expect(md).toContain('| non-streaming | Modelgate | 1.000 | 20.000 | +0.800 | +0.800 | +19.000 | +2.250 | 100 |');
    // Slow in every slice fails.
    json('modelgate').rounds = [7, 7.4, 20, 6.9].map((p99) => ({ p50: 1, p99 }));
    expect(p99().pass).toBe(false);
  });

  it('judges held-back chunks by the paired p99 chunk delay, so a VM stall in one slice does not fail it', () => {
    const r = results();
    const stream = (system: SystemName) => r.probes.find((p) => p.system === system && p.scenario === 'stream')!;
    // Pooled over the repetition, a stall in the gateway's round 2 sets its p99 chunk delay: 6 ms against 0.5.
    stream('mock').chunkDelay = { p50: 0.1, p99: 0.5, max: 0.9 };
    stream('modelgate').chunkDelay = { p50: 0.2, p99: 6, max: 9 };
    stream('mock').rounds = [0.4, 0.5, 0.45, 0.5].map((d) => ({ p50: 20, chunkDelayP99: d }));
    stream('modelgate').rounds = [0.6, 0.7, 6, 0.65].map((d) => ({ p50: 20, chunkDelayP99: d }));
    expect(pairedAdded(r, 'modelgate', 'stream', 'chunkDelayP99')).toEqual({
      value: 0.2,
      rounds: 4,
      disturbedLeftOut: 0,
    });
    const held = () => evaluateTargets(r).find((t) => t.id === 'no-chunk-buffered')!;
    expect(held().pass).toBe(true);
    expect(held().measured).toMatch(
      /^0\.200 ms added p99 chunk delay \(median of 4 paired rounds; medians of repetitions 6\.000 vs 0\.500 ms\)/,
    );
    // A gateway that held every chunk back for one 1 ms pacing interval fails in every round.
    stream('modelgate').rounds = [1.5, 1.6, 6, 1.55].map((d) => ({ p50: 20, chunkDelayP99: d }));
    expect(held().pass).toBe(false);
  });

  it('is absent for probes without rounds, and the targets fall back to the difference of the medians', () => {
    const r = results();
    expect(pairedAdded(r, 'modelgate', 'json', 'p50')).toBeUndefined();
    expect(evaluateTargets(r).find((t) => t.id === 'added-latency-p50')!.measured).toMatch(/^0\.800 ms \(1\.200 vs/);
  });
});

describe('paired throughput rounds', () => {
  /** Round `round`'s runs: req/s of the pass-through, Modelgate and Portkey, and the foreign load of Modelgate's run. */
  const addRound = (r: BenchResults, round: number, [bare, mg, pk]: number[], mgForeignPct = 5) => {
    r.throughputRounds ??= [];
    for (const [system, rps] of [
      ['passthrough', bare],
      ['modelgate', mg],
      ['portkey', pk],
    ] as const) {
      r.throughputRounds.push({
        ...run(system, 'json', 16, rps),
        round,
        machine: { busyPct: 90, foreignPct: system === 'modelgate' ? mgForeignPct : 5 },
      });
    }
  };

  it("take the median of the rounds' ratios, leaving disturbed rounds out", () => {
    const r = results();
    addRound(r, 1, [3000, 2500, 500]); // 5.0× Portkey, 83% of the pass-through
    addRound(r, 2, [3000, 900, 520], 40); // a burst on Modelgate's run: disturbed, left out
    addRound(r, 3, [2800, 2200, 600]); // 3.67×, 79%
    addRound(r, 4, [3100, 2700, 630]); // 4.29×, 87%
    expect(pairedRatio(r, 'modelgate', 'portkey')).toEqual({ value: 4.29, rounds: 3, disturbedLeftOut: 1 });
    expect(pairedRatio(r, 'modelgate', 'passthrough')).toEqual({ value: 0.83, rounds: 3, disturbedLeftOut: 1 });
    const byId = Object.fromEntries(evaluateTargets(r).map((t) => [t.id, t]));
    // The grid alone gives 4.10× (2050 vs 500); the paired rounds decide.
    expect(byId['throughput-vs-portkey'].measured).toBe(
      '4.29× (median of 3 paired rounds, 1 disturbed left out; grid medians 2050 vs 500 req/s)',
    );
    expect(byId['throughput-vs-passthrough'].measured).toMatch(/^83% \(median of 3 paired rounds/);
    const md = renderMarkdown({ ...r, targets: evaluateTargets(r) }, 'x.svg');
    expect(md).toContain('## Paired throughput rounds (non-streaming, c=16)');
    expect(md).toContain('| 2† | 3000 | 900 | 520 | 1.73× | 0.30× | 40.0 |');
    expect(md).toContain('| 4 | 3100 | 2700 | 630 | 4.29× | 0.87× | 5.0 |');
  });

  it('fail the target when Modelgate is under 4× Portkey in most rounds, whatever the grid says', () => {
    const r = results();
    addRound(r, 1, [3000, 1900, 500]);
    addRound(r, 2, [3000, 2100, 550]);
    addRound(r, 3, [3000, 2600, 600]);
    expect(evaluateTargets(r).find((t) => t.id === 'throughput-vs-portkey')!.pass).toBe(false);
  });

  it('pair only runs of the same round, and are absent without rounds', () => {
    const r = results();
    expect(pairedRatio(r, 'modelgate', 'portkey')).toBeUndefined();
    expect(renderMarkdown({ ...r, targets: evaluateTargets(r) }, 'x.svg')).not.toContain('Paired throughput rounds');
    addRound(r, 1, [3000, 2500, 500]);
    r.throughputRounds = r.throughputRounds!.filter((run) => run.system !== 'portkey');
    expect(pairedRatio(r, 'modelgate', 'portkey')).toBeUndefined();
    expect(evaluateTargets(r).find((t) => t.id === 'throughput-vs-portkey')!.measured).toMatch(/^4\.10× \(2050 vs 500/);
  });
});

describe('disturbed runs', () => {
  it('leave the median when an undisturbed repetition exists, and stay visible', () => {
    const r = results();
    r.runs = r.runs.map((run) =>
      run.system === 'modelgate' && run.scenario === 'json' && run.concurrency === 16 && run.rep === 2
        ? { ...run, load: { ...run.load, rps: 25 }, machine: { busyPct: 99, foreignPct: 44 } }
        : { ...run, machine: { busyPct: 70, foreignPct: 1 } },
    );
    const c = cell(r, 'modelgate', 'json', 16)!;
    expect(c.rps).toBe(2000);
    expect(c.rpsRuns).toEqual([
      { rps: 2000, disturbed: false },
      { rps: 25, disturbed: true },
    ]);
    expect(renderMarkdown({ ...r, targets: evaluateTargets(r) }, 'x.svg')).toContain(
      '| c=16 | 9050 (9000, 9100) | 2550 (2500, 2600) | 2000 (2000, 25†) |',
    );
  });
});

describe('leak summary', () => {
  // A sawtooth: climbs 10 MB a second for 4 s, drops back to its floor after each "major GC".
  const saw = (floorAt: (s: number) => number) =>
    Array.from({ length: 60 }, (_, s) => ({ s, mb: floorAt(s) + (s % 5) * 10 }));

  it('passes a steady sawtooth, whatever phase the run ends in', () => {
    const leak = summarizeLeak(
      saw(() => 180),
      60,
    );
    expect(leak.startMb).toBe(180);
    expect(leak.endMb).toBe(180);
    expect(leak.maxMb).toBe(220);
    expect(leak.slopeMbPerMin).toBe(0);
    expect(leak.pass).toBe(true);
  });

  it('fails when the floors keep rising', () => {
    const leak = summarizeLeak(
      saw((s) => 150 + s),
      60,
    );
    expect(leak.endMb).toBeGreaterThan(leak.startMb * 1.1);
    expect(leak.slopeMbPerMin).toBeCloseTo(60, 0);
    expect(leak.pass).toBe(false);
  });
});

describe('reports', () => {
  it('renders a markdown report with targets, ratios and every run', () => {
    const r = results();
    r.targets = evaluateTargets(r);
    const md = renderMarkdown(r, 'full.svg');
    expect(md).toContain('## Targets');
    expect(md).toContain('![throughput and latency against concurrency](full.svg)');
    expect(md).toContain(
      '| c=16 | 9050 (9000, 9100) | 2550 (2500, 2600) | 2050 (2000, 2100) | 500 (450, 550) | 4.10× | 0.80× | 0.23× |',
    );
    expect(md.match(/^\| [12] \| /gm)?.length).toBe(r.runs.length + r.probes.length);
  });

  it('draws one throughput and one latency panel per request kind, a line per system', () => {
    const svg = renderSvg(results());
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    // 3 request kinds × (4 throughput lines + 4 systems × p50/p99 latency lines).
    expect(svg.match(/<polyline /g)?.length).toBe(3 * (4 + 8));
    expect(svg).not.toMatch(/NaN|undefined/);
  });
});

describe('Responses front door figure', () => {
  it('is absent without /responses runs, and shows their medians beside the chat stream at the same concurrency', () => {
    const r = results();
    expect(renderMarkdown({ ...r, targets: evaluateTargets(r) }, 'x.svg')).not.toContain('Responses front door');
    r.responsesRuns = [
      run('modelgate', 'stream', 16, 1800),
      run('modelgate', 'stream', 16, 1900, 2),
      run('modelgate', 'stream', 16, 1000, 3),
    ];
    const md = renderMarkdown({ ...r, targets: evaluateTargets(r) }, 'x.svg');
    expect(md).toContain('## Streaming through the Responses front door (Modelgate, c=16)');
    expect(md).toContain('| POST /responses, stream | 3 | 1800 | 2.00 | 5.00 | 0.300 | 0 |');
    expect(md).toContain('| POST /chat/completions, stream | 2 | 2050 | 2.00 | 5.00 | 0.300 | 0 |');
    r.messagesRuns = [run('modelgate', 'stream', 16, 1700), run('modelgate', 'stream', 16, 1600, 2)];
    const both = renderMarkdown({ ...r, targets: evaluateTargets(r) }, 'x.svg');
    expect(both).toContain('## Streaming through the Responses and Messages front doors (Modelgate, c=16)');
    expect(both).toContain('| POST /messages, stream | 2 | 1650 | 2.00 | 5.00 | 0.300 | 0 |');
  });
});
