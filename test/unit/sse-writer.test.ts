// Backpressure: when the client's socket buffer is full, the writer waits for 'drain' (so the upstream read pauses too).
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
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
  flushHeaders() {}
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
    expect(res.headers).toMatchObject({ 'content-type': 'text/event-stream; charset=utf-8', 'x-request-id': 'r1', 'cache-control': 'no-cache' });
    await writer.data('{"a":1}');
    res.full = true;
    let resolved = false;
    const pending = writer.data('{"b":2}').then(() => (resolved = true));
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
});
