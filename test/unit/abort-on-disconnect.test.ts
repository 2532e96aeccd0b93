// The client-tied abort signal: a client that leaves before its response finished aborts the upstream call
// (undici takes the gateway's EventEmitter signal and fails like with an AbortSignal); a finished response, or a
// disposed watcher, aborts nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Koa from 'koa';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { abortOnDisconnect, DisconnectSignal } from '../../src/http/abort-on-disconnect.js';
import { HttpClient, UpstreamTransportError } from '../../src/providers/http-client.js';

/** An upstream that never answers and reports when a request's connection closes. */
let upstream: http.Server;
let upstreamUrl: string;
const upstreamClosed: (() => void)[] = [];
const client = new HttpClient({
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 60_000,
  bodyTimeoutMs: 60_000,
  maxInFlightPerOrigin: 0,
  queueTimeoutMs: 10_000,
  http2: true,
});

beforeAll(async () => {
  upstream = http.createServer((req) => req.socket.once('close', () => upstreamClosed.shift()?.()));
  upstream.listen(0, '127.0.0.1');
  await new Promise((resolve) => upstream.once('listening', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1/x`;
});
afterAll(async () => {
  await client.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

let gateway: http.Server | undefined;
afterEach(async () => {
  gateway?.closeAllConnections();
  await new Promise((resolve) => (gateway ? gateway.close(resolve) : resolve(undefined)));
  gateway = undefined;
});

async function serve(handler: Koa.Middleware): Promise<number> {
  const app = new Koa();
  app.silent = true;
  app.use(handler);
  gateway = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => gateway!.once('listening', resolve));
  return (gateway!.address() as AddressInfo).port;
}

/** Sends a request and closes the connection as soon as the server has seen it. */
function requestThenLeave(port: number, seen: Promise<void>): void {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write('GET / HTTP/1.1\r\nHost: t\r\n\r\n');
  void seen.then(() => socket.destroy());
}

describe('DisconnectSignal', () => {
  it('aborts once, with the reason an AbortController gives', () => {
    const signal = new DisconnectSignal();
    let events = 0;
    signal.on('abort', () => events++);
    expect(signal.aborted).toBe(false);
    expect(signal.reason).toBeUndefined();
    signal.abort();
    signal.abort();
    expect(events).toBe(1);
    expect(signal.aborted).toBe(true);
    const reference = new AbortController();
    reference.abort();
    expect(signal.reason).toBeInstanceOf(DOMException);
    expect((signal.reason as DOMException).name).toBe((reference.signal.reason as DOMException).name);
    expect((signal.reason as DOMException).message).toBe((reference.signal.reason as DOMException).message);
  });
});

describe('abortOnDisconnect', () => {
  it('aborts the upstream call when the client leaves before the response finished', async () => {
    let seen!: () => void;
    const handlerSaw = new Promise<void>((resolve) => (seen = resolve));
    const upstreamGone = new Promise<void>((resolve) => upstreamClosed.push(resolve));
    let outcome!: Promise<unknown>;
    let signal!: DisconnectSignal;
    const port = await serve(async (ctx) => {
      const watch = abortOnDisconnect(ctx);
      signal = watch.signal;
      outcome = client
        .send({ method: 'POST', url: upstreamUrl, headers: {}, body: '{}' }, watch.signal)
        .catch((err) => err);
      seen();
      await outcome;
    });
    requestThenLeave(port, handlerSaw);
    await upstreamGone;
    const err = await outcome;
    expect(signal.aborted).toBe(true);
    expect(err).toBeInstanceOf(UpstreamTransportError);
    expect((err as UpstreamTransportError).reason).toBe('aborted');
  });

  it('does not abort after a response that finished, nor after dispose', async () => {
    const signals: DisconnectSignal[] = [];
    let closed!: () => void;
    const bothClosed = new Promise<void>((resolve) => (closed = resolve));
    let count = 0;
    let disposed!: () => void;
    const wasDisposed = new Promise<void>((resolve) => (disposed = resolve));
    const port = await serve(async (ctx) => {
      const watch = abortOnDisconnect(ctx);
      signals.push(watch.signal);
      ctx.res.once('close', () => ++count === 2 && closed());
      if (ctx.path === '/disposed') {
        // Disposed, then the client leaves with the response unfinished: nothing may fire.
        watch.dispose();
        disposed();
        await new Promise((resolve) => ctx.req.socket.once('close', resolve));
        return;
      }
      ctx.body = 'done';
    });
    const res = await fetch(`http://127.0.0.1:${port}/finished`);
    expect(await res.text()).toBe('done');
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('GET /disposed HTTP/1.1\r\nHost: t\r\n\r\n');
    await wasDisposed;
    socket.destroy();
    await bothClosed;
    expect(signals).toHaveLength(2);
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false]);
  });
});
