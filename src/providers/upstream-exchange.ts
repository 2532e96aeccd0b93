// One upstream HTTP exchange driven through undici's dispatch API. undici's `request` wraps every response body in
// a Node Readable (stream state, nextTicks, a promise per async-iterated chunk); the gateway only ever reads a body
// whole (JSON) or chunk by chunk (SSE), so UpstreamBody queues the chunks itself, which
// measurably saves CPU per proxied request (docs/performance.md).
import type { Dispatcher } from 'undici';
import { errors as undiciErrors } from 'undici';
import { abortReason, listen, unlisten, type CallSignal } from './call-signal.js';

/**
 * Bytes queued before the upstream socket is paused: only a reader that has all but stopped reading (a stalled
 * client) gets here. Not undici's 64 KiB: pausing leaves what the socket already read inside undici, which drops
 * those bytes when the connection then fails with a reset (measured: ~22 KB of SSE events read, never delivered),
 * and undici suspends the body timeout while paused. An LLM stream a reader falls this far behind on is rare and
 * worth holding; the cap only bounds memory against one that never reads again.
 */
export const QUEUE_PAUSE_BYTES = 1024 * 1024;

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBody;
}

/**
 * A response body that is read once: whole (`json`, `text`) or as an async iterable of chunks. Every byte that
 * arrived before the body failed is handed out before the failure is thrown. Reading pauses the upstream socket
 * when the reader falls far behind; `destroy` stops the exchange if it has not ended.
 */
export class UpstreamBody implements AsyncIterable<Buffer> {
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private read = false;
  /** Read whole: every chunk is kept until the end, so the socket is never paused for the queue's size. */
  private whole = false;

  constructor(private readonly controller: Dispatcher.DispatchController) {}

  /** @internal From the exchange: a chunk arrived. */
  pushChunk(chunk: Buffer): void {
    if (this.ended) return;
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (!this.whole && this.queuedBytes >= QUEUE_PAUSE_BYTES) this.controller.pause();
    this.notify();
  }

  /** @internal From the exchange: the body is complete. */
  finish(): void {
    this.ended = true;
    this.notify();
  }

  /** @internal From the exchange: the body was cut short (socket error, body timeout, abort). */
  fail(err: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = err;
    this.notify();
  }

  /** The exchange is over, completed or failed: what is queued is all the reader will get before the end or error. */
  get settled(): boolean {
    return this.ended;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    this.claim();
    try {
      for (;;) {
        const chunk = this.queue.shift();
        if (chunk) {
          this.queuedBytes -= chunk.length;
          if (this.queuedBytes < QUEUE_PAUSE_BYTES && this.controller.paused) this.controller.resume();
          yield chunk;
          continue;
        }
        if (this.failure) throw this.failure;
        if (this.ended) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      // A reader that stops early (break, throw) is done with the body, as with undici's body streams.
      if (!this.ended) this.destroy();
    }
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString('utf8');
  }

  /** The whole body, as the upstream sent it (the native lane passes it on). */
  async bytes(): Promise<Buffer> {
    this.claim();
    this.whole = true;
    if (this.controller.paused) this.controller.resume();
    while (!this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.failure) throw this.failure;
    const whole = this.queue.length === 1 ? this.queue[0]! : Buffer.concat(this.queue);
    this.queue = [];
    this.queuedBytes = 0;
    return whole;
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  /** Drops what is queued and, unless the body already ended, aborts the exchange (the connection is not reused). */
  destroy(): void {
    this.queue = [];
    this.queuedBytes = 0;
    if (this.ended) return;
    this.fail(new undiciErrors.RequestAbortedError('upstream body destroyed'));
    this.controller.abort(this.failure!);
  }

  private claim(): void {
    if (this.read) throw new TypeError('upstream body already read');
    this.read = true;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/** The dispatch handler of one exchange: resolves with the head, then feeds the body. */
export class UpstreamExchange implements Dispatcher.DispatchHandler {
  readonly head: Promise<UpstreamResponse>;
  private resolveHead!: (head: UpstreamResponse) => void;
  private rejectHead!: (err: Error) => void;
  private body: UpstreamBody | undefined;
  private controller: Dispatcher.DispatchController | undefined;
  private readonly onAbort = () => this.controller?.abort(abortReason(this.signal));
  private over = false;

  constructor(
    private readonly signal: CallSignal,
    /** Called once when the exchange is over, however it ended: its upstream slot is free (origin-limiter.ts). */
    private readonly onOver?: () => void,
  ) {
    this.head = new Promise<UpstreamResponse>((resolve, reject) => {
      this.resolveHead = resolve;
      this.rejectHead = reject;
    });
    if (!signal.aborted) listen(signal, this.onAbort);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal.aborted) controller.abort(abortReason(this.signal));
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return; // 1xx informational: the real head follows
    this.body = new UpstreamBody(controller);
    this.resolveHead({ status: statusCode, headers, body: this.body });
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.body?.pushChunk(chunk);
  }

  onResponseEnd(): void {
    this.done();
    this.body?.finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.done();
    if (this.body) this.body.fail(err);
    else this.rejectHead(err);
  }

  /** The exchange was never dispatched: stop listening to the signal. */
  abandon(): void {
    this.done();
  }

  private done(): void {
    if (this.over) return;
    this.over = true;
    unlisten(this.signal, this.onAbort);
    this.onOver?.();
  }
}
