// Backpressure: when the client's socket buffer is full, the writer waits for 'drain' (so the upstream read pauses too).
// Corking: events written between cork() and uncork() reach the socket in one write.
import { EventEmitter } from 'node:events';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SseWriter } from '../../src/http/sse-writer.js';

class FakeResponse extends EventEmitter {
  written: string[] = [];
  full = false;
  destroyed = false;
  writableEnded = false;
  headers?: Record<string, string>;
  writeHead(_status: number, headers: Record<string, string>) {
    this.headers = headers;
  }
  corked = 0;
  cork() {
    this.corked++;
  }
  uncork() {
    if (this.corked > 0) this.corked--;
  }
  write(text: string): boolean {
    this.written.push(text);
    return !this.full;
  }
  end() {
    this.writableEnded = true;
  }
}

describe('SseWriter', () => {
  it('waits for drain when the socket is full, and frames events as data lines', async () => {
    const res = new FakeResponse();
    const writer = new SseWriter(res as unknown as ServerResponse, 60_000);
    writer.start({ 'x-request-id': 'r1' });
    expect(res.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'x-request-id': 'r1',
      'cache-control': 'no-cache',
    });
    await writer.data('{"a":1}');
    res.full = true;
    let resolved = false;
    const full = writer.data('{"b":2}');
    expect(full).toBeInstanceOf(Promise);
    const pending = full!.then(() => (resolved = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(resolved).toBe(false);
    res.emit('drain');
    await pending;
    expect(resolved).toBe(true);
    expect(res.written).toEqual(['data: {"a":1}\n\n', 'data: {"b":2}\n\n']);
    writer.end();
    expect(res.writableEnded).toBe(true);
  });

  it('does not hang when the client goes away while the socket is full', async () => {
    const res = new FakeResponse();
    const writer = new SseWriter(res as unknown as ServerResponse, 60_000);
    writer.start({});
    res.full = true;
    const pending = writer.data('x');
    res.destroyed = true;
    res.emit('close');
    await pending;
    expect(writer.closed).toBe(true);
    await writer.data('ignored');
    expect(res.written).toEqual(['data: x\n\n']);
    writer.end();
  });

  it('uncorks before it waits for drain, so a full socket cannot hold corked events forever', async () => {
    const res = new FakeResponse();
    const writer = new SseWriter(res as unknown as ServerResponse, 60_000);
    writer.start({});
    writer.cork();
    expect(writer.data('a')).toBeUndefined();
    expect(res.corked).toBe(1);
    res.full = true;
    const pending = writer.data('b');
    expect(res.corked).toBe(0);
    res.emit('drain');
    await pending;
    writer.end();
  });
});

/** Starts a server whose only response is written by `respond`; returns the socket writes it made and the body. */
async function serveOnce(
  respond: (writer: SseWriter) => Promise<void>,
  before: (res: ServerResponse) => void = () => {},
): Promise<{ socketWrites: number; body: string; headers: Headers }> {
  let socketWrites = 0;
  const server = http.createServer((_req, res) => {
    before(res);
    // Every syscall-level write of the response goes through the socket's _write or _writev.
    const socket = res.socket as Socket & { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
    for (const method of ['_write', '_writev'] as const) {
      const original = socket[method].bind(socket);
      socket[method] = (...args: unknown[]) => {
        socketWrites++;
        original(...args);
      };
    }
    const writer = new SseWriter(res, 60_000);
    writer.start({});
    void respond(writer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`);
    const body = await res.text();
    return { socketWrites, body, headers: res.headers };
  } finally {
    server.close();
  }
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('SseWriter on a real socket', () => {
  it('sends the headers set on the response before start (request id, generation id), the SSE ones winning', async () => {
    const { headers, body } = await serveOnce(
      async (writer) => {
        writer.data('1');
        writer.end();
      },
      (res) => {
        res.setHeader('x-request-id', 'req_1');
        res.setHeader('x-generation-id', 'gen-1');
        res.setHeader('content-type', 'application/json');
      },
    );
    expect(body).toBe('data: 1\n\n');
    expect(headers.get('x-request-id')).toBe('req_1');
    expect(headers.get('x-generation-id')).toBe('gen-1');
    expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(headers.get('cache-control')).toBe('no-cache');
  });

  it('sends the events written while corked in one socket write, even across event-loop turns', async () => {
    const { socketWrites, body } = await serveOnce(async (writer) => {
      writer.cork();
      writer.data('1');
      await nextTurn();
      writer.data('2');
      await nextTurn();
      writer.data('3');
      writer.uncork();
      await nextTurn();
      writer.end();
    });
    expect(body).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\n');
    expect(socketWrites).toBe(2); // headers and the three events; then the end of the chunked response
  });

  it('without cork, events written in different turns are separate writes', async () => {
    const { socketWrites } = await serveOnce(async (writer) => {
      writer.data('1');
      await nextTurn();
      writer.data('2');
      await nextTurn();
      writer.end();
    });
    expect(socketWrites).toBe(3);
  });

  it('sends the last corked events together with the end of the response', async () => {
    const { socketWrites, body } = await serveOnce(async (writer) => {
      writer.cork();
      writer.data('{"done":true}');
      await nextTurn();
      writer.data('[DONE]');
      writer.end();
    });
    expect(body).toBe('data: {"done":true}\n\ndata: [DONE]\n\n');
    expect(socketWrites).toBe(1);
  });
});
