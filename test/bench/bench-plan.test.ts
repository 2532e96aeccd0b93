// What each mode measures: full keeps its method; quick shortens windows, which only hold if autocannon samples
// often enough (a run ends at the first sample after its duration).
import { describe, expect, it } from 'vitest';
import { makePlan, steadyStateSummary } from '../../bench/lib/plan.js';

describe('makePlan', () => {
  it('keeps the full method', () => {
    const plan = makePlan('full', {});
    expect(plan).toMatchObject({
      steadyStateSeconds: 20,
      warmupSeconds: 1.5,
      measureSeconds: 5,
      loadSampleMs: 1000,
      reps: 3,
    });
    expect(plan.steadyStateSecondsOf).toBeUndefined();
    expect(steadyStateSummary(plan)).toBe('20 s of unmeasured load on each system');
    // The throughput targets come from 9 paired rounds of the three systems they compare.
    expect(plan.throughputRounds).toMatchObject({
      scenario: 'json',
      concurrency: 16,
      roundsPerRep: 3,
      systems: ['passthrough', 'modelgate', 'portkey'],
    });
    expect(plan.reps * plan.throughputRounds.roundsPerRep).toBe(9);
  });

  it('measures whole seconds where autocannon samples once a second', () => {
    const plan = makePlan('full', {});
    for (const seconds of [plan.measureSeconds, plan.throughputRounds.measureSeconds])
      expect(Number.isInteger(seconds), `${seconds} s`).toBe(true);
  });

  it('gives quick runs windows that end on time', () => {
    const plan = makePlan('quick', {});
    const halves = [plan.steadyStateSeconds, ...Object.values(plan.steadyStateSecondsOf ?? {})].map((s) => s / 2);
    const rounds = [plan.throughputRounds.warmupSeconds, plan.throughputRounds.measureSeconds];
    for (const seconds of [plan.warmupSeconds, plan.measureSeconds, ...rounds, ...halves]) {
      expect(Math.round(seconds * 1000) % plan.loadSampleMs, `${seconds} s`).toBe(0);
    }
  });

  it('warms the gateways in quick runs, the mock not at all', () => {
    const plan = makePlan('quick', {});
    expect(plan.steadyStateSeconds).toBeGreaterThanOrEqual(4);
    expect(plan.steadyStateSecondsOf).toEqual({ mock: 0, passthrough: 1 });
    expect(steadyStateSummary(plan)).toBe(
      '4 s of unmeasured load on each system, except 0 s on the mock upstream (direct) and 1 s on the bare Koa + undici pass-through',
    );
  });

  it('probes the routing step and both doors in every mode, and runs the observability/workers comparison in full runs only', () => {
    const full = makePlan('full', {});
    const quick = makePlan('quick', {});
    for (const plan of [full, quick]) expect(plan.probe.variants).toEqual(['routed', 'responses', 'messages']);
    expect(full.scale).toEqual({ rounds: 10, steadyStateSeconds: 15, warmupSeconds: 1, measureSeconds: 4 });
    expect(quick.scale.rounds).toBe(0);
    expect(makePlan('quick', { BENCH_SCALE_ROUNDS: '1', BENCH_SCALE_SECONDS: '2' }).scale).toMatchObject({
      rounds: 1,
      measureSeconds: 2,
    });
    expect(() => makePlan('full', { BENCH_SCALE_ROUNDS: 'x' })).toThrow(/BENCH_SCALE_ROUNDS/);
  });
});
