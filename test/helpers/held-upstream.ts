// A local OpenAI-compatible upstream whose streams stay open until released: each streaming request gets its head and
// a first chunk at once, then waits for release() (or for `deadlineMs` to pass) before its content, usage and [DONE].
// It counts the streams open at once, so a test can see whether the gateway holds requests back.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldUpstreamOptions {
  /** Release every stream this long after the first one started, so a test never hangs on a gateway that holds back. */
  deadlineMs?: number;
}

const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  frame({ id: 'held', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
const USAGE = frame({ id: 'held', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } });

export class HeldUpstream {
  started = 0;
  open = 0;
  maxOpen = 0;
  url = '';
  private released = false;
  private waiting: (() => void)[] = [];
  private deadline?: NodeJS.Timeout;
  private readonly server = http.createServer((req, res) => void this.handle(req, res));

  constructor(private readonly options: HeldUpstreamOptions = {}) {}

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Lets every held stream (and every later one) finish. */
  release(): void {
    this.released = true;
    clearTimeout(this.deadline);
    for (const wake of this.waiting.splice(0)) wake();
  }

  async close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    for await (const _ of req) {
      // The request body is not needed.
    }
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
    res.end(chunk({ content: ' last' }) + chunk({}, 'stop') + USAGE + 'data: [DONE]\n\n');
  }
}
