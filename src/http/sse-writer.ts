// Writes Server-Sent Events to the client: a `data:` line per event (after an `event:` line when the format names
// its events), the format's keep-alive while the upstream is silent, and backpressure (a slow client pauses us instead
// of growing a buffer). Events produced together (one upstream read) can be corked into one socket write; the caller
// uncorks before it waits for anything else.
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { WireFrame } from '../core/frame-source.js';
import type { SseFrame } from '../core/stream-renderer.js';

export class SseWriter {
  /** The answer's media type; a subclass frames events otherwise (json-array-writer.ts). */
  protected readonly contentType: string = 'text/event-stream; charset=utf-8';
  private lastWrite = Date.now();
  private timer?: NodeJS.Timeout;
  private corked = 0;

  constructor(
    private readonly res: ServerResponse,
    private readonly keepAliveMs: number,
    /** What is sent while the upstream is silent: an SSE comment by default, a ping event in some formats. */
    private readonly keepAlive = ': keep-alive\n\n',
  ) {}

  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /**
   * Sends the status and headers with the first event. Headers already set on the response (Koa's `ctx.set`) go
   * out too: writeHead merges them, the ones given here winning, so they need no copying first.
   */
  start(headers: Record<string, string> = {}): void {
    this.res.writeHead(200, {
      ...headers,
      'content-type': this.contentType,
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      // Reverse proxies (nginx) buffer responses unless told otherwise.
      'x-accel-buffering': 'no',
    });
    // No flushHeaders(): the first event follows at once, and the headers leave with it in one socket write.
    this.timer = setInterval(
      () => {
        if (Date.now() - this.lastWrite >= this.keepAliveMs) void this.write(this.keepAlive);
      },
      Math.max(250, Math.floor(this.keepAliveMs / 2)),
    );
    this.timer.unref();
  }

  /**
   * Sends one event. Returns undefined when the socket can take more at once (the common case costs no promise),
   * else a promise that resolves when it drained (or the client is gone).
   */
  data(payload: string): Promise<void> | undefined {
    return this.write(`data: ${payload}\n\n`);
  }

  /** Sends one frame, named (`event:` line) or not; returns as data() does. */
  frame(frame: SseFrame): Promise<void> | undefined {
    return frame.event === undefined
      ? this.data(frame.data)
      : this.write(`event: ${frame.event}\ndata: ${frame.data}\n\n`);
  }

  /** Sends one frame of either kind; returns as data() does. */
  send(frame: WireFrame): Promise<void> | undefined {
    return typeof frame === 'string' ? this.text(frame) : this.frame(frame);
  }

  /** Sends SSE text as it is (one or more whole events, already framed: the native lane's upstream events). */
  text(events: string): Promise<void> | undefined {
    return this.write(events);
  }

  /** Holds the following writes in the socket until uncork(), which sends them in one write. */
  cork(): void {
    if (this.closed) return;
    this.res.cork();
    this.corked++;
  }

  /** Sends everything held since cork(). */
  uncork(): void {
    for (; this.corked > 0; this.corked--) this.res.uncork();
  }

  end(): void {
    clearInterval(this.timer);
    // end() fully uncorks the socket itself, so what is still corked leaves with the end of the response (or, on a
    // destroyed response, is dropped with it): the socket may carry the next response and owes us nothing.
    if (!this.closed) this.res.end();
    this.corked = 0;
  }

  protected write(text: string): Promise<void> | undefined {
    if (this.closed) return undefined;
    this.lastWrite = Date.now();
    if (this.res.write(text)) return undefined;
    // Full: what is corked must go out first, or 'drain' would never come.
    this.uncork();
    return Promise.race([once(this.res, 'drain'), once(this.res, 'close')]).then(() => undefined);
  }
}
