// The per-endpoint circuit breaker with an injected clock: opens after consecutive failures, skips while open,
// half-opens after the cooldown with exactly one trial, closes on a successful trial, reopens on a failed one.
import { describe, expect, it } from 'vitest';
import { InMemoryCircuitBreaker } from '../../src/routing/circuit-breaker.js';

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
