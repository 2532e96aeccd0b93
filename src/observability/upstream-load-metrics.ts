// Upstream slots per origin, read at each scrape from the HTTP client's limiter (src/providers/origin-limiter.ts):
// how many requests are in flight, how many wait for a slot, and how many gave up waiting (each a 503). The origin
// label is bounded: origins come from the providers' configured base URLs (scheme, host and port only).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { OriginLoad } from '../providers/origin-limiter.js';

export function registerUpstreamLoad(registry: Registry, load: () => readonly OriginLoad[]): void {
  const registers = [registry];
  new Gauge({
    name: 'modelgate_upstream_requests_in_flight',
    registers,
    labelNames: ['origin'],
    help: 'Requests to the upstream origin that hold a slot (an HTTP/1.1 connection or an HTTP/2 stream): sent, or streaming their answer.',
    collect() {
      for (const origin of load()) this.set({ origin: origin.origin }, origin.inFlight);
    },
  });
  new Gauge({
    name: 'modelgate_upstream_requests_queued',
    registers,
    labelNames: ['origin'],
    help: 'Requests waiting for a free upstream slot because MODELGATE_UPSTREAM_CONCURRENCY requests are in flight to the origin.',
    collect() {
      for (const origin of load()) this.set({ origin: origin.origin }, origin.queued);
    },
  });
  const timeouts = new Counter({
    name: 'modelgate_upstream_queue_timeouts_total',
    registers,
    labelNames: ['origin'],
    help: 'Requests that waited MODELGATE_UPSTREAM_QUEUE_TIMEOUT_MS for an upstream slot and were answered 503.',
    collect() {
      // The limiter keeps the running totals: the counter is set to them, never summed twice.
      timeouts.reset();
      for (const origin of load())
        if (origin.queueTimeouts > 0) timeouts.inc({ origin: origin.origin }, origin.queueTimeouts);
    },
  });
}
