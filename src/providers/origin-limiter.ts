// Requests in flight to each upstream origin, and the cap on them (MODELGATE_UPSTREAM_CONCURRENCY,
// docs/concurrency.md). A streamed answer holds its slot (an HTTP/1.1 connection, an HTTP/2 stream) until it ends, so
// the cap is reached by long streams, not by request rate. Past the cap a request waits its turn, first come first
// served, for at most the queue timeout, and then fails as `queue_timeout` (a 503 naming the provider). undici's own
// pool queue, which this replaces, held the 257th stream silently until a whole stream ended, with no timeout and
// nothing to see.
import { listen, unlisten, type CallSignal } from './call-signal.js';
import { UpstreamTransportError } from './transport-error.js';

export interface OriginLimits {
  /** Requests in flight per origin at most; 0: no cap. */
  maxInFlight: number;
  /** How long a request may wait for a slot, ms. */
  queueTimeoutMs: number;
}

/** One origin's figures, as /metrics shows them. */
export interface OriginLoad {
  origin: string;
  inFlight: number;
  queued: number;
  queueTimeouts: number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
  signal: CallSignal;
  onAbort: () => void;
  timer: NodeJS.Timeout;
}

/** The slots of one origin. */
export class OriginSlots {
  inFlight = 0;
  queueTimeouts = 0;
  /** In arrival order (a Set keeps insertion order and leaves in O(1) on a timeout or an abort). */
  private readonly waiting = new Set<Waiter>();

  constructor(
    readonly origin: string,
    private readonly limits: OriginLimits,
  ) {}

  get queued(): number {
    return this.waiting.size;
  }

  /** `true`: a slot is taken at once (the common case costs no promise); else a promise of one. */
  take(signal: CallSignal): true | Promise<void> {
    const { maxInFlight, queueTimeoutMs } = this.limits;
    if (maxInFlight === 0 || this.inFlight < maxInFlight) {
      this.inFlight++;
      return true;
    }
    if (signal.aborted) return Promise.reject(new UpstreamTransportError('aborted', 'request aborted'));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.leave(waiter);
          reject(new UpstreamTransportError('aborted', 'request aborted while waiting for an upstream slot'));
        },
        timer: setTimeout(() => {
          this.leave(waiter);
          this.queueTimeouts++;
          reject(
            new UpstreamTransportError(
              'queue_timeout',
              `${maxInFlight} requests are already in flight to it from this gateway instance and none finished within ${queueTimeoutMs} ms`,
            ),
          );
        }, queueTimeoutMs),
      };
      listen(signal, waiter.onAbort);
      this.waiting.add(waiter);
    });
  }

  /** A request's exchange is over: its slot goes to the request that waited longest, or back to the pool. */
  give(): void {
    for (const next of this.waiting) {
      this.leave(next);
      next.resolve();
      return;
    }
    this.inFlight--;
  }

  private leave(waiter: Waiter): void {
    this.waiting.delete(waiter);
    clearTimeout(waiter.timer);
    unlisten(waiter.signal, waiter.onAbort);
  }
}

export class OriginLimiter {
  /** Never pruned: origins come from the providers' configured base URLs, a few per gateway. */
  private readonly origins = new Map<string, OriginSlots>();

  constructor(readonly limits: OriginLimits) {}

  slotsOf(origin: string): OriginSlots {
    let slots = this.origins.get(origin);
    if (!slots) {
      slots = new OriginSlots(origin, this.limits);
      this.origins.set(origin, slots);
    }
    return slots;
  }

  load(): OriginLoad[] {
    return [...this.origins.values()].map((slots) => ({
      origin: slots.origin,
      inFlight: slots.inFlight,
      queued: slots.queued,
      queueTimeouts: slots.queueTimeouts,
    }));
  }
}
