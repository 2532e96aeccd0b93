// Writes Server-Sent Events to the client: one `data:` line per event, keep-alive comments while the upstream is
// silent, and backpressure (a slow client pauses us instead of growing a buffer).
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';

export class SseWriter {
  private lastWrite = Date.now();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly res: ServerResponse,
    private readonly keepAliveMs: number,
  ) {}

  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  start(headers: Record<string, string>): void {
    this.res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      // Reverse proxies (nginx) buffer responses unless told otherwise.
      'x-accel-buffering': 'no',
    });
    this.res.flushHeaders();
    this.timer = setInterval(() => {
      if (Date.now() - this.lastWrite >= this.keepAliveMs) void this.write(': keep-alive\n\n');
    }, Math.max(250, Math.floor(this.keepAliveMs / 2)));
    this.timer.unref();
  }

  /** Sends one event; resolves when the socket can take more (or the client is gone). */
  data(payload: string): Promise<void> {
    return this.write(`data: ${payload}\n\n`);
  }

  end(): void {
    clearInterval(this.timer);
    if (!this.closed) this.res.end();
  }

  private async write(text: string): Promise<void> {
    if (this.closed) return;
    this.lastWrite = Date.now();
    if (!this.res.write(text)) {
      await Promise.race([once(this.res, 'drain'), once(this.res, 'close')]);
    }
  }
}
