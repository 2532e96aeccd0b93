// The circuit breaker's settings from the environment: defaults, the failure-rate rule's variables, their bounds.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createCircuitBreaker } from '../../src/routing/create-circuit-breaker.js';
import { InMemoryCircuitBreaker } from '../../src/routing/circuit-breaker.js';

describe('breaker configuration', () => {
  it('defaults: 5 consecutive failures or 50% of at least 20 attempts in 30 s, 30 s cooldown', () => {
    expect(loadConfig({}).breaker).toEqual({
      failureThreshold: 5,
      cooldownMs: 30_000,
      failureRate: { percent: 50, windowMs: 30_000, minRequests: 20 },
    });
  });

  it('reads the failure-rate variables (0 turns the rule off) and rejects values out of range', () => {
    const config = loadConfig({
      MODELGATE_BREAKER_FAILURE_RATE: '0',
      MODELGATE_BREAKER_WINDOW_MS: '60000',
      MODELGATE_BREAKER_MIN_REQUESTS: '5',
    });
    expect(config.breaker.failureRate).toEqual({ percent: 0, windowMs: 60_000, minRequests: 5 });
    expect(() => loadConfig({ MODELGATE_BREAKER_FAILURE_RATE: '101' })).toThrow(ConfigError);
    expect(() => loadConfig({ MODELGATE_BREAKER_MIN_REQUESTS: '1' })).toThrow(/MODELGATE_BREAKER_MIN_REQUESTS/);
    expect(() => loadConfig({ MODELGATE_BREAKER_WINDOW_MS: '10' })).toThrow(/MODELGATE_BREAKER_WINDOW_MS/);
  });

  it("without Redis the breaker is this process's own, and the configured rate rule opens it", () => {
    const breaker = createCircuitBreaker({ ...loadConfig({}).breaker, failureThreshold: 1000 }, undefined);
    expect(breaker).toBeInstanceOf(InMemoryCircuitBreaker);
    for (let i = 0; i < 10; i++) {
      breaker.recordSuccess('m@p');
      breaker.recordFailure('m@p');
    }
    expect(breaker.state('m@p')).toBe('open');
  });
});
