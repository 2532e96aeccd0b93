// A local HTTP server standing in for a vendor API: it records every request and answers with scripted replies
// (JSON, SSE chunk lists with optional pauses, a connection cut mid-stream, or silence).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  rawBody: string;
}

export type Reply =
  | { kind: 'json'; status?: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'text'; status: number; body: string; headers?: Record<string, string> }
  | { kind: 'sse'; chunks: (string | { pauseMs: number })[]; cutAfter?: number; headers?: Record<string, string> }
  | { kind: 'hang' }
  | SseDropReply;

/**
 * An SSE answer whose connection dies with the bytes: the head (chunked) and `chunks` are written to the raw socket
 * and the socket is closed in the same tick, so bytes and close reach the gateway together. With `late`, the first
 * chunks go out alone, and after `lateAfterMs` the late chunks are written and the socket closed in one tick.
 * `close: 'reset'` sends a TCP RST (resetAndDestroy), 'destroy' a FIN. `head: false` drops before any byte.
 */
export interface SseDropReply {
  kind: 'sse-drop';
  chunks: string[];
  late?: string[];
  lateAfterMs?: number;
  close: 'destroy' | 'reset';
  head?: boolean;
}

export class MockUpstream {
  readonly requests: RecordedRequest[] = [];
  private replies: Reply[] = [];
  private fallback?: Reply | ((request: RecordedRequest) => Reply);
  private server = http.createServer((req, res) => void this.handle(req, res));
  /** Resolves when a request's connection is closed by the gateway (abort propagation). */
  closedConnections = 0;
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Queue replies for the next requests, in order. */
  reply(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** Answer every request without a queued reply with this one, or with what `reply` makes of the request. */
  always(reply: Reply | ((request: RecordedRequest) => Reply)): this {
    this.fallback = reply;
    return this;
  }

  reset(): void {
    this.requests.length = 0;
    this.replies = [];
    this.fallback = undefined;
  }

  get last(): RecordedRequest {
    return this.requests[this.requests.length - 1];
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown = rawBody;
    try {
      body = JSON.parse(rawBody);
    } catch {
      // keep raw
    }
    const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, rawBody };
    this.requests.push(recorded);
    res.once('close', () => {
      if (!res.writableFinished) this.closedConnections++;
    });
    const reply =
      this.replies.shift() ?? (typeof this.fallback === 'function' ? this.fallback(recorded) : this.fallback);
    if (!reply) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'mock upstream: no reply scripted', type: 'server_error' } }));
      return;
    }
    switch (reply.kind) {
      case 'json':
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.body));
        return;
      case 'text':
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body);
        return;
      case 'hang':
        return;
      case 'sse-drop':
        await dropMidStream(res, reply);
        return;
      case 'sse': {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
        let sent = 0;
        for (const chunk of reply.chunks) {
          if (res.destroyed) return;
          if (typeof chunk === 'string') {
            res.write(chunk);
            sent++;
            if (reply.cutAfter !== undefined && sent >= reply.cutAfter) {
              // Let what was written reach the gateway first: a cut after the stream began, not before.
              await new Promise((resolve) => setTimeout(resolve, 30));
              res.destroy();
              return;
            }
          } else {
            await new Promise((resolve) => setTimeout(resolve, chunk.pauseMs));
          }
        }
        res.end();
        return;
      }
    }
  }
}

async function dropMidStream(res: http.ServerResponse, reply: SseDropReply): Promise<void> {
  // Raw socket writes: ServerResponse corks its writes until the next tick, so `res.write(x); res.destroy()` never
  // sends x (the gateway then rightly sees nothing). A real upstream's bytes are on the wire when its connection dies.
  const socket = res.socket!;
  const frame = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
  const close = () => (reply.close === 'reset' ? socket.resetAndDestroy() : socket.destroy());
  const head =
    'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\ntransfer-encoding: chunked\r\n\r\n';
  const first = (reply.head === false ? '' : head) + reply.chunks.map(frame).join('');
  if (first) socket.write(first);
  if (reply.late) {
    await new Promise((resolve) => setTimeout(resolve, reply.lateAfterMs ?? 30));
    socket.write(reply.late.map(frame).join(''));
  }
  close();
}

/** SSE `data:` frames of OpenAI-format chunks, ending with [DONE]. */
export function openAiSse(chunks: unknown[], done = true): string[] {
  return [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), ...(done ? ['data: [DONE]\n\n'] : [])];
}
