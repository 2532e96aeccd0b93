// The serving thread's side of span export: ended spans (recording-tracer.ts) are collected here and posted to the
// export thread (span-export-worker.ts) in batches (span-wire.ts), every 10 ms or 128 spans, whichever comes first:
// one structured clone per batch instead of the SDK's work per span on the thread that serves requests. Small and
// frequent batches: what a batch holds lives until it is posted, and a batch held for 50 ms outlived the young
// generation's collections and was copied into the old one (measured as more GC time than the copy to the thread).
import { Worker } from 'node:worker_threads';
import type { AttemptTrace, GatewaySpanSink, RequestTrace } from './gateway-tracer.js';
import type { FinishedSpan } from './recording-tracer.js';
import { SpanEncoder, type SpanBatch } from './span-wire.js';

export interface SpanExportWorkerData {
  /** The OTLP/HTTP traces URL (the exporter derives it from the environment when absent). */
  url?: string;
  maxQueueSize?: number;
}

export type ToExportThread = { type: 'spans'; batch: SpanBatch } | { type: 'handed'; id: number } | { type: 'shutdown' };
export type FromExportThread =
  | { type: 'ready' }
  | { type: 'handed'; id: number }
  | { type: 'shut' }
  | { type: 'diagnostic'; message: string; args: string[] };

const BATCH_SIZE = 128;
const BATCH_DELAY_MS = 10;
/** How long a stop waits for the last export (the OTLP exporter's own timeout is 10 s, with retries). */
const SHUTDOWN_TIMEOUT_MS = 30_000;

export interface SpanExportThreadOptions extends SpanExportWorkerData {
  /** The SDK's warnings and errors on the export thread (a failed export, spans dropped from a full queue). */
  diagnostic: (message: string, args: string[]) => void;
}

export class SpanExportThread implements GatewaySpanSink {
  private readonly encoder = new SpanEncoder();
  private timer: NodeJS.Timeout | undefined;
  private exited = false;
  private handedRequests = 0;

  private constructor(private readonly worker: Worker) {
    worker.once('exit', () => (this.exited = true));
  }

  static async start(options: SpanExportThreadOptions): Promise<SpanExportThread> {
    const { diagnostic, ...workerData } = options;
    const worker = exportWorker(workerData);
    worker.on('message', (message: FromExportThread) => {
      if (message.type === 'diagnostic') diagnostic(message.message, message.args);
    });
    worker.on('error', (err) => diagnostic('the span export thread failed', [String(err)]));
    await new Promise<void>((resolve, reject) => {
      const ready = (message: FromExportThread) => {
        if (message.type !== 'ready') return;
        worker.off('message', ready).off('error', reject);
        resolve();
      };
      worker.on('message', ready).once('error', reject);
    });
    // A process that exits without a graceful stop is not held up by this thread.
    worker.unref();
    return new SpanExportThread(worker);
  }

  /** Queues an ended span for export (the tracer's sink). */
  readonly span = (span: FinishedSpan): void => {
    this.encoder.add(span);
    this.added();
  };

  readonly request = (request: RequestTrace): void => {
    this.encoder.addRequest(request);
    this.added();
  };

  readonly attempt = (attempt: AttemptTrace): void => {
    this.encoder.addAttempt(attempt);
    this.added();
  };

  private added(): void {
    if (this.encoder.spans >= BATCH_SIZE) this.flush();
    else this.timer ??= setTimeout(this.flush, BATCH_DELAY_MS).unref();
  }

  /** Posts what is collected now. */
  readonly flush = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.encoder.spans === 0 || this.exited) return;
    this.worker.postMessage({ type: 'spans', batch: this.encoder.take() } satisfies ToExportThread);
  };

  /**
   * Resolves once every span ended so far is in the SDK's batch processor (its queue, or dropped from it, or already
   * exported): the export thread answers messages in order.
   */
  async handed(): Promise<void> {
    this.flush();
    if (this.exited) return;
    const id = ++this.handedRequests;
    await this.ask({ type: 'handed', id }, (answer) => answer.type === 'handed' && answer.id === id);
  }

  /** Posts the last spans, lets the export thread export everything it holds, and ends it. */
  async shutdown(): Promise<void> {
    this.flush();
    if (this.exited) return;
    await this.ask({ type: 'shutdown' }, (answer) => answer.type === 'shut', SHUTDOWN_TIMEOUT_MS);
    await this.worker.terminate();
  }

  /** Posts `message` and resolves at its answer, when the thread exits, or after `timeoutMs`. */
  private ask(message: ToExportThread, isAnswer: (answer: FromExportThread) => boolean, timeoutMs?: number): Promise<void> {
    const worker = this.worker;
    return new Promise<void>((resolve) => {
      const timeout = timeoutMs === undefined ? undefined : setTimeout(done, timeoutMs);
      function onMessage(answer: FromExportThread) {
        if (isAnswer(answer)) done();
      }
      function done() {
        clearTimeout(timeout);
        worker.off('message', onMessage).off('exit', done);
        resolve();
      }
      worker.on('message', onMessage).once('exit', done);
      worker.postMessage(message);
    });
  }
}

/** The export thread, from the compiled module; from source (tests, tsx) it loads span-export-worker.ts through tsx. */
function exportWorker(workerData: SpanExportWorkerData): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`./span-export-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSource) return new Worker(entry, { workerData });
  const load = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(load, { eval: true, workerData });
}
