// The upstream exchange: head, body queue with back-pressure, aborts; against a fake dispatch controller and a real
// local HTTP server through HttpClient.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamBody, UpstreamExchange } from '../../src/providers/upstream-exchange.js';
import { HttpClient, UpstreamTransportError } from '../../src/providers/http-client.js';
import { DisconnectSignal } from '../../src/http/abort-on-disconnect.js';

class FakeController {
  paused = false;
  aborted = false;
  reason: Error | null = null;
  pauses = 0;
  pause() {
    this.paused = true;
    this.pauses++;
  }
  resume() {
    this.paused = false;
  }
  abort(reason: Error) {
    this.aborted = true;
    this.reason = reason;
  }
}

const kib = (n: number, fill = 'a') => Buffer.alloc(n * 1024, fill);

describe('UpstreamBody', () => {
  it('pauses the socket at 64 KiB queued and resumes once the reader drains below it', async () => {
    const controller = new FakeController();
    const body = new UpstreamBody(controller as never);
    body.pushChunk(kib(40));
    expect(controller.paused).toBe(false);
    body.pushChunk(kib(40));
    expect(controller.paused).toBe(true);
    const reader = body[Symbol.asyncIterator]();
    expect((await reader.next()).value).toHaveLength(40 * 1024);
    expect(controller.paused).toBe(false);
    body.finish();
    expect((await reader.next()).value).toHaveLength(40 * 1024);
    expect((await reader.next()).done).toBe(true);
  });

  it('hands chunks to a waiting reader in order, then ends', async () => {
    const body = new UpstreamBody(new FakeController() as never);
    const seen: string[] = [];
    const reading = (async () => {
      for await (const chunk of body) seen.push(chunk.toString());
    })();
    body.pushChunk(Buffer.from('a'));
    await Promise.resolve();
    body.pushChunk(Buffer.from('b'));
    body.pushChunk(Buffer.from('c'));
    body.finish();
    await reading;
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('reads whole as text and JSON, never pausing the socket, and only once', async () => {
    const controller = new FakeController();
    const body = new UpstreamBody(controller as never);
    body.pushChunk(Buffer.from('{"a":'));
    body.pushChunk(kib(70, ' '));
    expect(controller.paused).toBe(true);
    const json = body.json();
    expect(controller.paused).toBe(false);
    body.pushChunk(kib(100, ' '));
    expect(controller.paused).toBe(false);
    expect(controller.pauses).toBe(1);
    body.pushChunk(Buffer.from('"é"}'));
    body.finish();
    expect(await json).toEqual({ a: 'é' });
    await expect(body.text()).rejects.toThrow(/already read/);
  });

  it('rejects a reader with the error that cut the body short', async () => {
    const body = new UpstreamBody(new FakeController() as never);
    body.pushChunk(Buffer.from('partial'));
    const text = body.text();
    body.fail(new Error('other side closed'));
    await expect(text).rejects.toThrow('other side closed');
  });

  it('a reader that stops early destroys the body, which aborts the exchange', async () => {
    const controller = new FakeController();
    const body = new UpstreamBody(controller as never);
    body.pushChunk(Buffer.from('a'));
    body.pushChunk(Buffer.from('b'));
    for await (const chunk of body) {
      expect(chunk.toString()).toBe('a');
      break;
    }
    expect(controller.aborted).toBe(true);
  });

  it('destroy aborts an unfinished exchange and drops the queue; after the end it aborts nothing', () => {
    const open = new FakeController();
    const body = new UpstreamBody(open as never);
    body.pushChunk(kib(1));
    body.destroy();
    expect(open.aborted).toBe(true);
    expect(open.reason?.name).toBe('AbortError');

    const finished = new FakeController();
    const done = new UpstreamBody(finished as never);
    done.finish();
    done.destroy();
    expect(finished.aborted).toBe(false);
  });
});

describe('UpstreamExchange', () => {
  it('skips 1xx heads, resolves with the final head and rejects when no head came', async () => {
    const exchange = new UpstreamExchange(new DisconnectSignal());
    const controller = new FakeController();
    exchange.onRequestStart(controller as never);
    exchange.onResponseStart(controller as never, 100, {});
    exchange.onResponseStart(controller as never, 201, { 'x-a': '1' });
    exchange.onResponseData(controller as never, Buffer.from('ok'));
    exchange.onResponseEnd();
    const head = await exchange.head;
    expect(head.status).toBe(201);
    expect(head.headers['x-a']).toBe('1');
    expect(await head.body.text()).toBe('ok');

    const failed = new UpstreamExchange(new DisconnectSignal());
    failed.onResponseError(controller as never, new Error('ECONNRESET'));
    await expect(failed.head).rejects.toThrow('ECONNRESET');
  });

  it('aborts through its controller when the signal fires, and stops listening once the exchange ended', () => {
    const signal = new DisconnectSignal();
    const exchange = new UpstreamExchange(signal);
    const controller = new FakeController();
    exchange.onRequestStart(controller as never);
    expect(signal.listenerCount('abort')).toBe(1);
    signal.abort();
    expect(controller.aborted).toBe(true);
    expect(controller.reason?.name).toBe('AbortError');

    const quiet = new DisconnectSignal();
    const ended = new UpstreamExchange(quiet);
    ended.onRequestStart(new FakeController() as never);
    ended.onResponseEnd();
    expect(quiet.listenerCount('abort')).toBe(0);
  });
});

describe('HttpClient over a local server', () => {
  let server: Server;
  let base: string;
  const client = new HttpClient({ connectTimeoutMs: 2_000, headersTimeoutMs: 2_000, bodyTimeoutMs: 2_000 });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (part) => (body += part));
      req.on('end', () => {
        if (req.url === '/echo') {
          res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' });
          res.end(JSON.stringify({ method: req.method, body: JSON.parse(body), auth: req.headers.authorization }));
        } else if (req.url === '/big') {
          // 1 MiB in 64 KiB writes: more than the body queue holds before it pauses the socket.
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          for (let i = 0; i < 16; i++) res.write(kib(64, String.fromCharCode(97 + i)));
          res.end();
        } else if (req.url === '/big-json') {
          // A JSON answer of ~1 MiB in many writes: read whole, it must never stall on the queue's pause threshold.
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"items":[');
          for (let i = 0; i < 2000; i++) res.write(`${i ? ',' : ''}"${'x'.repeat(500)}"`);
          res.end(']}');
        } else if (req.url === '/hang') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: first\n\n');
        } else {
          res.writeHead(404).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (path: string, signal = new DisconnectSignal()) =>
    client.send({ method: 'POST', url: `${base}${path}`, headers: { 'content-type': 'application/json', authorization: 'Bearer up' }, body: '{"q":"é"}' }, signal);

  it('sends method, headers and body, and reads status, headers and JSON', async () => {
    const response = await send('/echo');
    expect(response.status).toBe(200);
    expect(response.headers['x-upstream']).toBe('yes');
    expect(await response.body.json()).toEqual({ method: 'POST', body: { q: 'é' }, auth: 'Bearer up' });
  });

  it('reads a JSON answer far larger than the queue whole', async () => {
    const response = await send('/big-json');
    const json = (await response.body.json()) as { items: string[] };
    expect(json.items).toHaveLength(2000);
  });

  it('streams a body larger than its queue to a slow reader, every byte in order', async () => {
    const response = await send('/big');
    const parts: Buffer[] = [];
    for await (const chunk of response.body) {
      parts.push(chunk);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const all = Buffer.concat(parts);
    expect(all).toHaveLength(16 * 64 * 1024);
    for (let i = 0; i < 16; i++) expect(all[i * 64 * 1024]).toBe(97 + i);
  });

  it('a client that leaves mid-body ends the read with an abort, and the client still works afterwards', async () => {
    const signal = new DisconnectSignal();
    const response = await send('/hang', signal);
    const reader = response.body[Symbol.asyncIterator]();
    expect((await reader.next()).value?.toString()).toBe('data: first\n\n');
    const next = reader.next();
    signal.abort();
    await expect(next).rejects.toMatchObject({ name: 'AbortError' });
    expect((await send('/echo')).status).toBe(200);
  });

  it('an already aborted signal and an unreachable or invalid URL fail as transport errors', async () => {
    const gone = new DisconnectSignal();
    gone.abort();
    await expect(send('/echo', gone)).rejects.toMatchObject({ reason: 'aborted' });
    await expect(
      client.send({ method: 'POST', url: 'http://127.0.0.1:9/v1', headers: {}, body: '{}' }, new DisconnectSignal()),
    ).rejects.toMatchObject({ reason: 'unreachable' });
    const invalid = client.send({ method: 'POST', url: 'not a url', headers: {}, body: '{}' }, new DisconnectSignal());
    await expect(invalid).rejects.toBeInstanceOf(UpstreamTransportError);
  });
});
