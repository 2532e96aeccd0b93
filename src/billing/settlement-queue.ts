// Step 7 without serializing the hot path: settlements queue up and are written in batches, one statement
// (one round trip, one commit, one fsync) per batch, instead of one transaction per request. Responses do not wait for the commit; the
// queue is drained before the database closes, so a graceful stop loses nothing. A batch that fails is retried
// item by item, so one bad record cannot hold back the others.
import type { Db } from '../db/database.js';
import type { NewGeneration } from '../db/tables/generations.js';
import type { Logger } from '../logger.js';
import { returnLeasedHold, settleGeneration, settleGenerations, type Admission } from './accounting.js';

interface QueuedSettlement {
  admission: Admission;
  record: NewGeneration;
  done: () => void;
  /** Queue order, from 1. */
  seq: number;
}

const MAX_BATCH = 200;
const RETRIES = 3;
/**
 * How long the first settlement of a batch waits for others. Every batch is a round trip, ~0.5 ms of PostgreSQL CPU
 * for the call itself and a WAL flush; at low concurrency, without a window, each request would pay that alone, on
 * the same cores as the next request. At 10 ms, sequential streams (~20 ms each) still got a batch of one apiece,
 * and that batch landed inside the next stream: on a 2-core machine it delayed one of that stream's chunks by ~1 ms
 * in about a fifth of the streams (benchmark probes, late chunks bunched 7-8 ms into each stream; moving the window
 * moved the bunch, and no settlement at all removed it). 50 ms batches two or three such streams per call. Reads
 * that must see the records (GET /generation, /credits, /pass/usage) do not wait it out: they call `flushed()`.
 */
export const DEFAULT_BATCH_WINDOW_MS = 50;

export class SettlementQueue {
  private pending: QueuedSettlement[] = [];
  private flushing?: Promise<void>;
  /** Ends the open batch window early (drain, flushed). */
  private closeWindow?: () => void;
  /** Settlements numbered up to this one are awaited (drain, flushed): their batches do not wait for company. */
  private hurriedThrough = 0;
  private queuedCount = 0;
  /** The newest settlement queued: batches are written in queue order, so when it is written all earlier ones are. */
  private lastQueued?: Promise<void>;

  /**
   * Sees every generation record as it is queued (metrics): the one place where a request's model, provider, status,
   * usage, cost and timings are all known.
   */
  observer?: (record: NewGeneration) => void;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly batchWindowMs = DEFAULT_BATCH_WINDOW_MS,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  /** Resolves once the record is committed (or, after retries, logged as lost); never rejects. */
  settle(admission: Admission, record: NewGeneration): Promise<void> {
    returnLeasedHold(admission, BigInt(record.cost_nanos ?? 0n));
    if (this.observer) {
      try {
        this.observer(record);
      } catch (err) {
        this.logger.warn({ err, generation_id: record.id }, 'generation observer failed');
      }
    }
    const queued = new Promise<void>((done) => {
      this.pending.push({ admission, record, done, seq: ++this.queuedCount });
      this.flushing ??= this.flushAll();
    });
    this.lastQueued = queued;
    return queued;
  }

  /**
   * Resolves once everything queued before the call is written (without waiting out batch windows), so a client
   * that reads its credits or a generation right after a response sees it: read-your-writes on one instance.
   */
  async flushed(): Promise<void> {
    const last = this.lastQueued;
    if (last === undefined) return;
    this.hurryThrough(this.queuedCount);
    await last;
  }

  /** Everything queued so far is committed (or logged) when this resolves; batch windows close at once. */
  async drain(): Promise<void> {
    while (this.flushing) {
      this.hurryThrough(this.queuedCount);
      await this.flushing;
    }
  }

  /** Settlements up to number `seq` are written without waiting for company; an open window for them closes. */
  private hurryThrough(seq: number): void {
    this.hurriedThrough = Math.max(this.hurriedThrough, seq);
    this.closeWindow?.();
  }

  private async flushAll(): Promise<void> {
    while (this.pending.length > 0) {
      // Every batch waits for company, not only the first: requests that finish while a batch is being written
      // would otherwise go out one or two at a time, back to back (measured at c=1: a round trip every ~2 requests).
      await this.batchWindow();
      // Same lock order on every instance (by user), so concurrent batches cannot deadlock.
      const batch = this.pending.splice(0, MAX_BATCH).sort((a, b) => (a.admission.userId < b.admission.userId ? -1 : 1));
      await this.writeBatch(batch);
    }
    this.flushing = undefined;
  }

  private batchWindow(): Promise<void> {
    if (this.pending.length >= MAX_BATCH || this.pending[0].seq <= this.hurriedThrough) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const close = () => {
        clearTimeout(timer);
        this.closeWindow = undefined;
        resolve();
      };
      const timer = setTimeout(close, this.batchWindowMs);
      this.closeWindow = close;
    });
  }

  private async writeBatch(batch: QueuedSettlement[]): Promise<void> {
    try {
      await settleGenerations(this.db, batch);
      for (const item of batch) item.done();
    } catch (err) {
      this.logger.warn({ err, batch: batch.length }, 'settlement batch failed; settling one by one');
      for (const item of batch) await this.writeOne(item);
    }
  }

  private async writeOne(item: QueuedSettlement): Promise<void> {
    for (let attempt = 1; attempt <= RETRIES; attempt++) {
      try {
        await settleGeneration(this.db, item.admission, item.record);
        item.done();
        return;
      } catch (err) {
        if (attempt === RETRIES) {
          // Last resort: the full record in the log, so an operator can replay it (it is idempotent by id).
          this.logger.error({ err, generation: { ...item.record, cost_nanos: String(item.record.cost_nanos), reference_cost_nanos: String(item.record.reference_cost_nanos) } }, 'could not settle generation');
          item.done();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }
}
