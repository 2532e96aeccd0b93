// What each mode measures: full keeps its method; quick shortens windows, which only hold if autocannon samples
// often enough (a run ends at the first sample after its duration).
import { describe, expect, it } from 'vitest';
import { makePlan, steadyStateSummary } from '../../bench/lib/plan.js';

describe('makePlan', () => {
  it('keeps the full method', () => {
    const plan = makePlan('full', {});
    expect(plan).toMatchObject({ steadyStateSeconds: 20, warmupSeconds: 1.5, measureSeconds: 5, loadSampleMs: 1000, reps: 3 });
    expect(plan.steadyStateSecondsOf).toBeUndefined();
    expect(steadyStateSummary(plan)).toBe('20 s of unmeasured load on each system');
  });

  it('gives quick runs windows that end on time', () => {
    const plan = makePlan('quick', {});
    const halves = [plan.steadyStateSeconds, ...Object.values(plan.steadyStateSecondsOf ?? {})].map((s) => s / 2);
    for (const seconds of [plan.warmupSeconds, plan.measureSeconds, ...halves]) {
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
});
