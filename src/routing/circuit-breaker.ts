// Circuit breaker per endpoint ("<model id>@<provider>"): after `failureThreshold` consecutive failures an endpoint is
// open (skipped) for `cooldownMs`; then half-open: one trial request is let through, whose success closes the
// breaker and whose failure opens it again for another cooldown. State lives in this process; the interface is what
// the pipeline needs, so a shared (Redis-backed) implementation can replace it.

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface CircuitBreaker {
  /** The endpoint's state now (for ordering candidates and the endpoints listing). */
  state(key: string): BreakerState;
  /** May a request be sent now? closed: yes; open: no; half-open: yes for the one trial (claimed by this call). */
  allowRequest(key: string): boolean;
  recordSuccess(key: string): void;
  recordFailure(key: string): void;
}

export interface BreakerOptions {
  failureThreshold: number;
  cooldownMs: number;
  /** Milliseconds; injectable for tests. */
  clock?: () => number;
}

interface EndpointHealth {
  consecutiveFailures: number;
  /** When the breaker opened (undefined: closed). */
  openedAt?: number;
  /** When the half-open trial was handed out; a trial that never reports back expires after a cooldown. */
  trialAt?: number;
}

export class InMemoryCircuitBreaker implements CircuitBreaker {
  private readonly health = new Map<string, EndpointHealth>();
  private readonly clock: () => number;

  constructor(private readonly options: BreakerOptions) {
    this.clock = options.clock ?? Date.now;
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
    // Healthy endpoints have no entry: the common case allocates nothing.
    if (this.health.has(key)) this.health.delete(key);
  }

  recordFailure(key: string): void {
    let h = this.health.get(key);
    if (!h) {
      h = { consecutiveFailures: 0 };
      this.health.set(key, h);
    }
    h.consecutiveFailures++;
    const now = this.clock();
    // A failed trial (or a failure while open) reopens for a full cooldown.
    if (h.openedAt !== undefined || h.consecutiveFailures >= this.options.failureThreshold) {
      h.openedAt = now;
      h.trialAt = undefined;
    }
  }
}
