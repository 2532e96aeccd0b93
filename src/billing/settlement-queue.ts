// Step 7 without serializing the hot path: settlements queue up and are written in batches, one transaction
// (one commit, one fsync) per batch, instead of one per request. Responses do not wait for the commit; the
// queue is drained before the database closes, so a graceful stop loses nothing. A batch that fails is retried
// item by item, so one bad record cannot hold back the others.
import type { Db } from '../db/database.js';
import type { NewGeneration } from '../db/tables/generations.js';
import type { Logger } from '../logger.js';
import { settleGeneration, settleGenerations, type Admission } from './accounting.js';

interface QueuedSettlement {
  admission: Admission;
  record: NewGeneration;
  done: () => void;
}

const MAX_BATCH = 200;
const RETRIES = 3;

export class SettlementQueue {
  private pending: QueuedSettlement[] = [];
  private flushing?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  /** Resolves once the record is committed (or, after retries, logged as lost); never rejects. */
  settle(admission: Admission, record: NewGeneration): Promise<void> {
    return new Promise((done) => {
      this.pending.push({ admission, record, done });
      this.flushing ??= this.flushAll();
    });
  }

  /** Everything queued so far is committed (or logged) when this resolves. */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flushAll(): Promise<void> {
    // Let the requests finishing in this tick join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      // Same lock order on every instance (by user), so concurrent batches cannot deadlock.
      const batch = this.pending.splice(0, MAX_BATCH).sort((a, b) => (a.admission.userId < b.admission.userId ? -1 : 1));
      await this.writeBatch(batch);
    }
    this.flushing = undefined;
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
