// The upstream exchange: head, body queue with back-pressure, aborts; against a fake dispatch controller and a real
// local HTTP server through HttpClient.
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_PAUSE_BYTES, UpstreamBody, UpstreamExchange } from '../../src/providers/upstream-exchange.js';
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

// SSE answers written to the raw socket, HTTP/1.1 chunked framing by hand: ServerResponse corks its writes until the
// next tick, so a socket closed in the same tick would never send them. A real upstream's bytes are on the wire
// when its connection dies; these are too.
const SSE_HEAD = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n';
const sseEvents = (from: number, to: number, pad = 0) => {
  let out = '';
  for (let i = from; i < to; i++) {
    const event = `data: ${i} ${'x'.repeat(pad)}\n\n`;
    out += `${Buffer.byteLength(event).toString(16)}\r\n${event}\r\n`;
  }
  return out;
};
const closeSocket = (res: ServerResponse, how: string | undefined) =>
  how === 'reset' ? res.socket!.resetAndDestroy() : res.socket!.destroy();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Reads a body to its end or failure: the text handed out, and the error that ended it. */
async function readToFailure(chunks: AsyncIterable<Buffer>, text = ''): Promise<{ text: string; error?: Error }> {
  try {
    for await (const chunk of chunks) text += chunk.toString();
    return { text };
  } catch (error) {
    return { text, error: error as Error };
  }
}

const eventNumbers = (text: string) => [...text.matchAll(/^data: (\d+)/gm)].map((m) => Number(m[1]));
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('UpstreamBody', () => {
  it('pauses the socket only once a reader is far behind (not at 64 KiB) and resumes once it drains below that', async () => {
    const controller = new FakeController();
    const body = new UpstreamBody(controller as never);
    const half = QUEUE_PAUSE_BYTES / 2;
    body.pushChunk(Buffer.alloc(half));
    expect(controller.paused).toBe(false);
    body.pushChunk(Buffer.alloc(half));
    expect(controller.paused).toBe(true);
    const reader = body[Symbol.asyncIterator]();
    expect((await reader.next()).value).toHaveLength(half);
    expect(controller.paused).toBe(false);
    body.finish();
    expect((await reader.next()).value).toHaveLength(half);
    expect((await reader.next()).done).toBe(true);
  });

  it('hands out every chunk that arrived before a failure, in order, then throws the failure', async () => {
    const body = new UpstreamBody(new FakeController() as never);
    const seen: string[] = [];
    const reading = (async () => {
      for await (const chunk of body) seen.push(chunk.toString());
    })();
    body.pushChunk(Buffer.from('a'));
    await Promise.resolve();
    // The last bytes and the reset in one tick, as a socket reports them.
    body.pushChunk(Buffer.from('b'));
    body.pushChunk(Buffer.from('c'));
    body.fail(new Error('read ECONNRESET'));
    await expect(reading).rejects.toThrow('ECONNRESET');
    expect(seen).toEqual(['a', 'b', 'c']);
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
    body.pushChunk(Buffer.alloc(QUEUE_PAUSE_BYTES, ' '));
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
  const client = new HttpClient({
    connectTimeoutMs: 2_000,
    headersTimeoutMs: 2_000,
    bodyTimeoutMs: 2_000,
    maxInFlightPerOrigin: 0,
    queueTimeoutMs: 10_000,
    http2: true,
  });

  /** The reader of /reset-behind-reader stands still from `stalled` until the server has reset the connection. */
  let behindReader = { stalled: deferred(), resetSent: deferred() };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (part) => (body += part));
      req.on('end', async () => {
        const [, route, how] = req.url!.split('/');
        if (route === 'drop-together') {
          // The head, three events and the close reach the client together.
          res.socket!.write(SSE_HEAD + sseEvents(0, 3));
          closeSocket(res, how);
        } else if (route === 'drop-late') {
          // Two events; later, one more event and the close in one tick.
          res.socket!.write(SSE_HEAD + sseEvents(0, 2));
          await pause(20);
          res.socket!.write(sseEvents(2, 3));
          closeSocket(res, how);
        } else if (route === 'drop-before-head') {
          closeSocket(res, how);
        } else if (route === 'reset-behind-reader') {
          // One event; once the reader has it and stands still, ~80 KB more (past undici's own 64 KiB high-water
          // mark), then 8 more and a reset once the client's socket has taken them in.
          res.socket!.write(SSE_HEAD + sseEvents(0, 1, 1000));
          await behindReader.stalled.promise;
          res.socket!.write(sseEvents(1, 80, 1000));
          await pause(30);
          res.socket!.write(sseEvents(80, 88, 1000));
          await pause(30);
          res.socket!.resetAndDestroy();
          behindReader.resetSent.resolve();
        } else if (req.url === '/echo') {
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
    client.send(
      {
        method: 'POST',
        url: `${base}${path}`,
        headers: { 'content-type': 'application/json', authorization: 'Bearer up' },
        body: '{"q":"é"}',
      },
      signal,
    );

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

  describe.each(['destroy', 'reset'])('an upstream that closes its socket (%s) right after its bytes', (how) => {
    it('bytes and close together: every event is handed out, in order, then the failure', async () => {
      const response = await send(`/drop-together/${how}`);
      expect(response.status).toBe(200);
      const { text, error } = await readToFailure(response.body);
      expect(eventNumbers(text)).toEqual([0, 1, 2]);
      expect(error).toBeInstanceOf(Error);
    });

    it('one more event and the close together, later: that last event is handed out too', async () => {
      const { text, error } = await readToFailure((await send(`/drop-late/${how}`)).body);
      expect(eventNumbers(text)).toEqual([0, 1, 2]);
      expect(error).toBeInstanceOf(Error);
    });

    it('a close before any byte rejects the head as a transport failure', async () => {
      await expect(send(`/drop-before-head/${how}`)).rejects.toMatchObject({
        name: 'UpstreamTransportError',
        reason: 'failed',
      });
    });
  });

  it('a reset while the reader is behind loses none of the bytes the socket had read', async () => {
    behindReader = { stalled: deferred(), resetSent: deferred() };
    const response = await send('/reset-behind-reader');
    const reader = response.body[Symbol.asyncIterator]();
    const first = (await reader.next()).value!.toString();
    behindReader.stalled.resolve();
    await behindReader.resetSent.promise;
    // Still standing still until the gateway's side has seen the reset too.
    while (!response.body.settled) await pause(5);
    const { text, error } = await readToFailure({ [Symbol.asyncIterator]: () => reader }, first);
    expect(eventNumbers(text)).toEqual(upTo(88));
    expect(error).toBeInstanceOf(Error);
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
