// Circuit breaker per endpoint ("<model id>@<provider>"): an endpoint opens (is skipped) for `cooldownMs` after
// `failureThreshold` consecutive failures, or when over the last `failureRate.windowMs` at least
// `failureRate.minRequests` outcomes were seen and `failureRate.percent` of them were failures (the minimum keeps
// one failure out of two requests from opening it). Then half-open: one trial request is let through, whose success
// closes the breaker and whose failure opens it again for another cooldown. While open, successes of requests sent
// before it opened give no verdict (under a high failure rate they would otherwise close it at once).
// This class keeps the state in this process; src/routing/redis-circuit-breaker.ts shares it through Redis.
import { OutcomeWindow, rateExceeded } from './outcome-window.js';

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface CircuitBreaker {
  /** The endpoint's state as last known here (for ordering candidates and the endpoints listing). */
  state(key: string): BreakerState;
  /**
   * May a request be sent now? closed: yes; open: no; half-open: yes for the one trial (claimed by this call).
   * A shared breaker may have to ask its store (a promise); the in-memory one answers at once.
   */
  allowRequest(key: string): boolean | Promise<boolean>;
  /** Outcomes; a shared breaker's promise never rejects, and callers need not wait for it. */
  recordSuccess(key: string): void | Promise<void>;
  recordFailure(key: string): void | Promise<void>;
  /** Brings these endpoints' state() up to date with the shared store (the endpoints listing); absent: nothing to do. */
  refresh?(keys: readonly string[]): Promise<void>;
}

export interface FailureRateRule {
  /** Failures per hundred outcomes that open the breaker; 0 switches the rule off. */
  percent: number;
  windowMs: number;
  /** Fewer outcomes than this in the window never open the breaker by rate. */
  minRequests: number;
}

export interface BreakerOptions {
  failureThreshold: number;
  cooldownMs: number;
  /** Off when absent. */
  failureRate?: FailureRateRule;
  /** Milliseconds; injectable for tests. */
  clock?: () => number;
}

interface EndpointHealth {
  consecutiveFailures: number;
  /** When the breaker opened (undefined: closed). */
  openedAt?: number;
  /** When the half-open trial was handed out; a trial that never reports back expires after a cooldown. */
  trialAt?: number;
  /** Outcomes over the failure-rate window (only with the rule on). */
  window?: OutcomeWindow;
}

export class InMemoryCircuitBreaker implements CircuitBreaker {
  private readonly health = new Map<string, EndpointHealth>();
  private readonly clock: () => number;
  private readonly rate: FailureRateRule | undefined;

  constructor(private readonly options: BreakerOptions) {
    this.clock = options.clock ?? Date.now;
    this.rate = options.failureRate && options.failureRate.percent > 0 ? options.failureRate : undefined;
  }

  state(key: string): BreakerState {
    const h = this.health.get(key);
    if (h?.openedAt === undefined) return 'closed';
    return this.clock() - h.openedAt < this.options.cooldownMs ? 'open' : 'half_open';
  }

  allowRequest(key: string): boolean {
    const h = this.health.get(key);
    if (h?.openedAt === undefined) return true;
    const now = this.clock();
    if (now - h.openedAt < this.options.cooldownMs) return false;
    // Half-open: one trial at a time (a trial lost without a verdict, e.g. its client left, expires).
    if (h.trialAt !== undefined && now - h.trialAt < this.options.cooldownMs) return false;
    h.trialAt = now;
    return true;
  }

  recordSuccess(key: string): void {
    const h = this.health.get(key);
    if (!this.rate) {
      // Without the rate rule a healthy endpoint needs no entry: the common case allocates nothing.
      if (h && !this.stillCooling(h)) this.health.delete(key);
      return;
    }
    if (!h) {
      const added = this.fresh();
      added.window!.record(this.clock(), false);
      this.health.set(key, added);
      return;
    }
    if (h.openedAt !== undefined) {
      // Half-open: the endpoint serves again, the window starts over.
      if (!this.stillCooling(h)) this.health.set(key, this.fresh());
      return;
    }
    h.consecutiveFailures = 0;
    h.window!.record(this.clock(), false);
  }

  recordFailure(key: string): void {
    let h = this.health.get(key);
    if (!h) {
      h = this.fresh();
      this.health.set(key, h);
    }
    const now = this.clock();
    h.consecutiveFailures++;
    h.window?.record(now, true);
    // A failed trial (or a failure while open) reopens for a full cooldown.
    if (h.openedAt !== undefined || h.consecutiveFailures >= this.options.failureThreshold || this.rateOpens(h, now)) {
      h.openedAt = now;
      h.trialAt = undefined;
    }
  }

  private rateOpens(h: EndpointHealth, now: number): boolean {
    if (!this.rate || !h.window) return false;
    const { total, failed } = h.window.totals(now);
    return rateExceeded(failed, total, this.rate);
  }

  private stillCooling(h: EndpointHealth): boolean {
    return h.openedAt !== undefined && this.clock() - h.openedAt < this.options.cooldownMs;
  }

  private fresh(): EndpointHealth {
    return { consecutiveFailures: 0, window: this.rate ? new OutcomeWindow(this.rate.windowMs) : undefined };
  }
}
