// The per-origin cap on upstream requests in flight: past it requests wait first come first served, a freed slot goes
// to the one that waited longest, and a wait ends with the queue timeout or the client's abort, leaving the queue.
import { describe, expect, it } from 'vitest';
import { OriginLimiter } from '../../src/providers/origin-limiter.js';
import { UpstreamTransportError } from '../../src/providers/transport-error.js';

const never = new AbortController().signal;
const settledState = async (promise: Promise<unknown>) => {
  let state = 'pending';
  promise.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('OriginLimiter', () => {
  it('takes slots at once below the cap, per origin, and counts them', () => {
    const limiter = new OriginLimiter({ maxInFlight: 2, queueTimeoutMs: 1000 });
    const a = limiter.slotsOf('https://a.example');
    expect(a.take(never)).toBe(true);
    expect(a.take(never)).toBe(true);
    expect(limiter.slotsOf('https://b.example').take(never)).toBe(true);
    expect(limiter.slotsOf('https://a.example')).toBe(a);
    expect(limiter.load()).toEqual([
      { origin: 'https://a.example', inFlight: 2, queued: 0, queueTimeouts: 0 },
      { origin: 'https://b.example', inFlight: 1, queued: 0, queueTimeouts: 0 },
    ]);
    a.give();
    expect(a.inFlight).toBe(1);
  });

  it('past the cap, hands each freed slot to the request that waited longest', async () => {
    const slots = new OriginLimiter({ maxInFlight: 1, queueTimeoutMs: 10_000 }).slotsOf('https://a.example');
    expect(slots.take(never)).toBe(true);
    const first = slots.take(never) as Promise<void>;
    const second = slots.take(never) as Promise<void>;
    expect(slots.queued).toBe(2);
    expect(await settledState(first)).toBe('pending');
    slots.give();
    expect(await settledState(first)).toBe('resolved');
    expect(await settledState(second)).toBe('pending');
    // The slot passed on: still one in flight.
    expect(slots.inFlight).toBe(1);
    slots.give();
    expect(await settledState(second)).toBe('resolved');
    slots.give();
    expect(slots.inFlight).toBe(0);
    expect(slots.queued).toBe(0);
  });

  it('fails a wait past the queue timeout as queue_timeout, and counts it', async () => {
    const slots = new OriginLimiter({ maxInFlight: 1, queueTimeoutMs: 30 }).slotsOf('https://a.example');
    slots.take(never);
    const started = Date.now();
    const err = await (slots.take(never) as Promise<void>).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(err).toBeInstanceOf(UpstreamTransportError);
    expect((err as UpstreamTransportError).reason).toBe('queue_timeout');
    expect((err as Error).message).toBe(
      '1 requests are already in flight to it from this gateway instance and none finished within 30 ms',
    );
    expect(slots.queued).toBe(0);
    expect(slots.queueTimeouts).toBe(1);
    // The timed-out request is not handed the slot later.
    slots.give();
    expect(slots.inFlight).toBe(0);
  });

  it('lets a client that goes away leave the queue at once', async () => {
    const slots = new OriginLimiter({ maxInFlight: 1, queueTimeoutMs: 10_000 }).slotsOf('https://a.example');
    slots.take(never);
    const client = new AbortController();
    const waiting = slots.take(client.signal) as Promise<void>;
    const behind = slots.take(never) as Promise<void>;
    client.abort();
    const err = await waiting.catch((e: unknown) => e);
    expect((err as UpstreamTransportError).reason).toBe('aborted');
    expect(slots.queued).toBe(1);
    slots.give();
    expect(await settledState(behind)).toBe('resolved');
    expect(slots.queueTimeouts).toBe(0);
  });

  it('refuses at once a request whose client is already gone when it would wait', async () => {
    const slots = new OriginLimiter({ maxInFlight: 1, queueTimeoutMs: 10_000 }).slotsOf('https://a.example');
    slots.take(never);
    const gone = new AbortController();
    gone.abort();
    const err = await (slots.take(gone.signal) as Promise<void>).catch((e: unknown) => e);
    expect((err as UpstreamTransportError).reason).toBe('aborted');
    expect(slots.queued).toBe(0);
  });

  it('never makes a request wait without a cap (0), and still counts what is in flight', () => {
    const slots = new OriginLimiter({ maxInFlight: 0, queueTimeoutMs: 1 }).slotsOf('https://a.example');
    for (let i = 0; i < 10_000; i++) expect(slots.take(never)).toBe(true);
    expect(slots.inFlight).toBe(10_000);
    expect(slots.queued).toBe(0);
  });
});
