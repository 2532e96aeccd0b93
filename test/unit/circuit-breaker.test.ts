// The per-endpoint circuit breaker with an injected clock: opens after consecutive failures, skips while open,
// half-opens after the cooldown with exactly one trial, closes on a successful trial, reopens on a failed one; and the
// failure-rate rule: a share of failures over a sliding window opens it, given a minimum number of outcomes.
import { describe, expect, it } from 'vitest';
import { InMemoryCircuitBreaker } from '../../src/routing/circuit-breaker.js';
import { OutcomeWindow } from '../../src/routing/outcome-window.js';

function breaker() {
  const clock = { now: 0 };
  return { clock, b: new InMemoryCircuitBreaker({ failureThreshold: 3, cooldownMs: 1000, clock: () => clock.now }) };
}

describe('InMemoryCircuitBreaker', () => {
  it('stays closed below the threshold; a success resets the count', () => {
    const { b } = breaker();
    b.recordFailure('m@p');
    b.recordFailure('m@p');
    b.recordSuccess('m@p');
    b.recordFailure('m@p');
    b.recordFailure('m@p');
    expect(b.state('m@p')).toBe('closed');
    expect(b.allowRequest('m@p')).toBe(true);
  });

  it('opens after consecutive failures and refuses requests until the cooldown ends', () => {
    const { b, clock } = breaker();
    for (let i = 0; i < 3; i++) b.recordFailure('m@p');
    expect(b.state('m@p')).toBe('open');
    expect(b.allowRequest('m@p')).toBe(false);
    clock.now = 999;
    expect(b.allowRequest('m@p')).toBe(false);
    expect(b.state('other@p')).toBe('closed');
  });

  it('half-opens after the cooldown: one trial at a time; success closes', () => {
    const { b, clock } = breaker();
    for (let i = 0; i < 3; i++) b.recordFailure('m@p');
    clock.now = 1000;
    expect(b.state('m@p')).toBe('half_open');
    expect(b.allowRequest('m@p')).toBe(true);
    expect(b.allowRequest('m@p')).toBe(false);
    b.recordSuccess('m@p');
    expect(b.state('m@p')).toBe('closed');
    expect(b.allowRequest('m@p')).toBe(true);
  });

  it('a failed trial reopens for a full cooldown', () => {
    const { b, clock } = breaker();
    for (let i = 0; i < 3; i++) b.recordFailure('m@p');
    clock.now = 1500;
    expect(b.allowRequest('m@p')).toBe(true);
    b.recordFailure('m@p');
    expect(b.state('m@p')).toBe('open');
    clock.now = 2499;
    expect(b.allowRequest('m@p')).toBe(false);
    clock.now = 2500;
    expect(b.allowRequest('m@p')).toBe(true);
  });

  it('a trial that never reports back expires after a cooldown, so the endpoint is not stuck', () => {
    const { b, clock } = breaker();
    for (let i = 0; i < 3; i++) b.recordFailure('m@p');
    clock.now = 1000;
    expect(b.allowRequest('m@p')).toBe(true);
    clock.now = 1999;
    expect(b.allowRequest('m@p')).toBe(false);
    clock.now = 2000;
    expect(b.allowRequest('m@p')).toBe(true);
  });
});

describe('InMemoryCircuitBreaker failure-rate rule', () => {
  // Consecutive failures alone never reach 100 here: only the rate can open the breaker.
  function rated(minRequests = 10) {
    const clock = { now: 0 };
    const b = new InMemoryCircuitBreaker({
      failureThreshold: 100,
      cooldownMs: 1000,
      failureRate: { percent: 50, windowMs: 10_000, minRequests },
      clock: () => clock.now,
    });
    return { clock, b };
  }
  /** Alternates failure, success: never two failures in a row, half of the outcomes failed. */
  function alternate(b: InMemoryCircuitBreaker, pairs: number) {
    for (let i = 0; i < pairs; i++) {
      b.recordFailure('m@p');
      if (b.state('m@p') !== 'closed') return;
      b.recordSuccess('m@p');
    }
  }

  it('opens when half of the outcomes in the window failed, though failures were never consecutive', () => {
    const { b } = rated();
    alternate(b, 4);
    expect(b.state('m@p')).toBe('closed'); // 8 outcomes: below the minimum
    b.recordFailure('m@p'); // 9 outcomes, 5 failed: still below the minimum
    expect(b.state('m@p')).toBe('closed');
    b.recordSuccess('m@p');
    b.recordFailure('m@p'); // 11 outcomes, 6 failed (55%)
    expect(b.state('m@p')).toBe('open');
    expect(b.allowRequest('m@p')).toBe(false);
  });

  it('one failure out of two requests does not open it (minimum sample count)', () => {
    const { b } = rated(20);
    b.recordSuccess('m@p');
    b.recordFailure('m@p');
    expect(b.state('m@p')).toBe('closed');
  });

  it('stays closed below the rate', () => {
    const { b } = rated();
    for (let i = 0; i < 30; i++) {
      if (i % 3 === 0) b.recordFailure('m@p');
      else b.recordSuccess('m@p');
    }
    expect(b.state('m@p')).toBe('closed'); // 33% failed
  });

  it('forgets outcomes that left the window', () => {
    const { b, clock } = rated();
    for (let i = 0; i < 8; i++) b.recordFailure('m@p'); // 8 outcomes: below the minimum
    clock.now = 10_000; // those failures (bucket 0) left the 10 s window
    for (let i = 0; i < 8; i++) b.recordSuccess('m@p');
    for (let i = 0; i < 2; i++) b.recordFailure('m@p');
    // Inside the window: 2 failed of 10 (counting the old ones it would be 10 of 18, over the rate).
    expect(b.state('m@p')).toBe('closed');
    for (let i = 0; i < 9; i++) b.recordFailure('m@p');
    expect(b.state('m@p')).toBe('open'); // 11 of 19
  });

  it('successes while open give no verdict; after the cooldown a successful trial closes it and the window starts over', () => {
    const { b, clock } = rated();
    alternate(b, 6);
    expect(b.state('m@p')).toBe('open');
    for (let i = 0; i < 5; i++) b.recordSuccess('m@p'); // in-flight requests sent before it opened
    expect(b.state('m@p')).toBe('open');
    clock.now = 1000;
    expect(b.allowRequest('m@p')).toBe(true);
    b.recordSuccess('m@p');
    expect(b.state('m@p')).toBe('closed');
    b.recordFailure('m@p');
    expect(b.state('m@p')).toBe('closed'); // the old failures are gone: 1 outcome
  });

  it('percent 0 switches the rule off', () => {
    const b = new InMemoryCircuitBreaker({
      failureThreshold: 100,
      cooldownMs: 1000,
      failureRate: { percent: 0, windowMs: 10_000, minRequests: 2 },
    });
    for (let i = 0; i < 50; i++) b.recordFailure('m@p');
    expect(b.state('m@p')).toBe('closed');
  });
});

describe('OutcomeWindow', () => {
  it('counts outcomes per bucket and drops buckets older than the window', () => {
    const w = new OutcomeWindow(1000); // ten buckets of 100 ms
    w.record(0, true);
    w.record(50, false);
    w.record(950, true);
    expect(w.totals(999)).toEqual({ total: 3, failed: 2 });
    expect(w.totals(1000)).toEqual({ total: 1, failed: 1 }); // bucket 0 left the window
    w.record(2000, false); // reuses bucket 0's slot
    expect(w.totals(2000)).toEqual({ total: 1, failed: 0 });
  });
});
