// A local OpenAI-compatible upstream whose streams stay open until released: each streaming request gets its head and
// a first chunk at once, then waits for release() (or for `deadlineMs` to pass) before its content, usage and [DONE].
// It counts the streams open at once, so a test can see whether the gateway holds requests back. With `tls` it is an
// HTTPS server that offers HTTP/2 (and HTTP/1.1) and records which protocol each request came over, and on how many
// connections.
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';

export interface HeldUpstreamOptions {
  /** Release every stream this long after the first one started, so a test never hangs on a gateway that holds back. */
  deadlineMs?: number;
  /** Serve HTTPS with this certificate, offering HTTP/2 over ALPN. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

type Request = http.IncomingMessage | http2.Http2ServerRequest;
type Response = http.ServerResponse | http2.Http2ServerResponse;

const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  frame({
    id: 'held',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
const USAGE = frame({
  id: 'held',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
});

export class HeldUpstream {
  started = 0;
  open = 0;
  maxOpen = 0;
  /** Connections accepted (TLS handshakes with `tls`). */
  connections = 0;
  /** The HTTP version of every request, in arrival order. */
  readonly httpVersions: string[] = [];
  url = '';
  private released = false;
  private waiting: (() => void)[] = [];
  private deadline?: NodeJS.Timeout;
  private readonly server: http.Server | http2.Http2SecureServer;
  private readonly sessions = new Set<http2.ServerHttp2Session>();

  constructor(private readonly options: HeldUpstreamOptions = {}) {
    const handler = (req: Request, res: Response) => void this.handle(req, res);
    this.server = options.tls
      ? http2.createSecureServer({ ...options.tls, allowHTTP1: true }, handler)
      : http.createServer(handler);
    this.server.on(options.tls ? 'secureConnection' : 'connection', () => this.connections++);
    this.server.on('session', (session: http2.ServerHttp2Session) => {
      this.sessions.add(session);
      session.once('close', () => this.sessions.delete(session));
    });
  }

  /** Sends GOAWAY on every HTTP/2 connection (as a server does when it restarts) while its streams are open. */
  goAway(): void {
    for (const session of this.sessions) session.goaway(http2.constants.NGHTTP2_NO_ERROR);
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `${this.options.tls ? 'https' : 'http'}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Holds the streams that start from now on, until the next release(). */
  hold(): void {
    this.released = false;
  }

  /** Lets every held stream (and every later one) finish. */
  release(): void {
    this.released = true;
    clearTimeout(this.deadline);
    for (const wake of this.waiting.splice(0)) wake();
  }

  async close(): Promise<void> {
    this.release();
    if ('closeAllConnections' in this.server) this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: Request, reply: Response): Promise<void> {
    // Both kinds of response take what is written here the same way.
    const res = reply as http.ServerResponse;
    for await (const _ of req) {
      // The request body is not needed.
    }
    this.httpVersions.push(req.httpVersion);
    this.started++;
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    res.once('close', () => this.open--);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk({ role: 'assistant', content: 'first' }));
    if (this.options.deadlineMs !== undefined && this.deadline === undefined) {
      this.deadline = setTimeout(() => this.release(), this.options.deadlineMs);
    }
    if (!this.released) await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (res.destroyed) return;
    res.end(`${chunk({ content: ' last' })}${chunk({}, 'stop')}${USAGE}data: [DONE]\n\n`);
  }
}
