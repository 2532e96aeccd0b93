// Step 7, durable before the answer ends: a generation's last bytes (a JSON body, a stream's usage and end) leave only
// once its settlement is committed (the pipeline awaits `settle`), so a crash loses no bill a client was told of.
// Group commit keeps that cheap: a settlement is written at once when no batch is being written, and every settlement
// that arrives while one is being written goes out together in the next statement (one round trip, one commit, one
// WAL flush for all of them), so the busier the gateway, the bigger the batches, and no settlement waits for a timer.
// A database that is away (a restart, a failover) is waited for: the batch is written again until it commits; the
// settle_generations function skips records already written, so a commit whose reply was lost is not counted twice.
// A batch the database refuses is retried item by item, so one bad record cannot hold back the others.
import { isConnectionFailure } from '../db/database-unavailable.js';
import type { Db } from '../db/database.js';
import type { NewGeneration } from '../db/tables/generations.js';
import type { Logger } from '../logger.js';
import { returnLeasedHold, type Admission } from './admission.js';
import { settleGeneration, settleGenerations } from './settlement.js';

interface QueuedSettlement {
  admission: Admission;
  record: NewGeneration;
  done: () => void;
}

const MAX_BATCH = 200;
/** Attempts at one record the database refused (not for lack of a connection) before it is logged for replay. */
const RETRIES = 3;
/** Waits between attempts while the database is away: doubling from the first to the last. */
const OUTAGE_RETRY_MS = { first: 50, last: 1_000 };

/** A settlement not written because the wait for the database ended (drain's deadline at shutdown). */
class WaitEnded extends Error {}

export class SettlementQueue {
  private pending: QueuedSettlement[] = [];
  /** The writer loop, while there is anything to write. */
  private writing?: Promise<void>;
  /** The newest settlement queued: batches are written in queue order, so when it is written all earlier ones are. */
  private lastQueued?: Promise<void>;
  /** Set by drain's deadline: a settlement still waiting for the database then is logged for replay instead. */
  private waitUntil = Number.POSITIVE_INFINITY;
  /** When the database was found away, while it is. */
  private outageSince?: number;

  /**
   * Sees every generation record as it is queued (metrics): the one place where a request's model, provider, status,
   * usage, cost and timings are all known.
   */
  observer?: (record: NewGeneration) => void;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /** Settlements queued and not yet taken into a batch (Prometheus modelgate_settlement_queue_depth). */
  get size(): number {
    return this.pending.length;
  }

  /** Resolves once the record is committed (or, when it cannot be, logged for replay); never rejects. */
  settle(admission: Admission, record: NewGeneration): Promise<void> {
    returnLeasedHold(admission, BigInt(record.cost_nanos ?? 0n));
    if (this.observer) {
      try {
        this.observer(record);
      } catch (err) {
        this.logger.warn({ err, generation_id: record.id }, 'generation observer failed');
      }
    }
    const queued = new Promise<void>((done) => this.pending.push({ admission, record, done }));
    this.writing ??= this.writeAll();
    this.lastQueued = queued;
    return queued;
  }

  /**
   * Resolves once everything queued before the call is written, so a client that reads its credits or a generation
   * right after a response sees it: read-your-writes on one instance.
   */
  async flushed(): Promise<void> {
    await this.lastQueued;
  }

  /**
   * Everything queued so far is committed (or logged) when this resolves. With `timeoutMs` (a stop while the database
   * is away), settlements still waiting for the database after that long are logged for replay instead.
   */
  async drain(timeoutMs?: number): Promise<void> {
    if (timeoutMs !== undefined) this.waitUntil = Math.min(this.waitUntil, Date.now() + timeoutMs);
    while (this.writing) await this.writing;
  }

  private async writeAll(): Promise<void> {
    // One turn of the event loop first: settlements queued by the same turn's work share the first statement.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      // Same lock order on every instance (by user), so concurrent batches cannot deadlock.
      const batch = this.pending
        .splice(0, MAX_BATCH)
        .sort((a, b) => (a.admission.userId < b.admission.userId ? -1 : 1));
      await this.writeBatch(batch);
    }
    this.writing = undefined;
  }

  private async writeBatch(batch: QueuedSettlement[]): Promise<void> {
    try {
      await this.untilWritten(() => settleGenerations(this.db, batch));
      for (const item of batch) item.done();
    } catch (err) {
      if (err instanceof WaitEnded) {
        for (const item of batch) this.abandon(item, err.cause);
        return;
      }
      this.logger.warn({ err, batch: batch.length }, 'settlement batch failed; settling one by one');
      for (const item of batch) await this.writeOne(item);
    }
  }

  private async writeOne(item: QueuedSettlement): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.untilWritten(() => settleGeneration(this.db, item.admission, item.record));
        item.done();
        return;
      } catch (err) {
        if (err instanceof WaitEnded || attempt === RETRIES) {
          this.abandon(item, err instanceof WaitEnded ? err.cause : err);
          return;
        }
        await sleep(50 * attempt);
      }
    }
  }

  /** Runs `write` until it commits or fails for a reason of its own: a database that is away is waited for. */
  private async untilWritten<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await write();
        if (this.outageSince !== undefined) {
          this.logger.info({ waited_ms: Date.now() - this.outageSince }, 'database back: waiting settlements written');
          this.outageSince = undefined;
        }
        return result;
      } catch (err) {
        if (!isConnectionFailure(err)) throw err;
        if (this.outageSince === undefined) {
          this.outageSince = Date.now();
          this.logger.warn(
            { err },
            'database unavailable: settlements wait for it (answers end once theirs is written)',
          );
        }
        if (Date.now() >= this.waitUntil) throw new WaitEnded('gave up waiting for the database', { cause: err });
        await sleep(
          Math.min(
            OUTAGE_RETRY_MS.first * 2 ** attempt,
            OUTAGE_RETRY_MS.last,
            Math.max(0, this.waitUntil - Date.now()),
          ),
        );
      }
    }
  }

  /** Last resort: the full record in the log, so an operator can replay it (settlement is idempotent by id). */
  private abandon(item: QueuedSettlement, err: unknown): void {
    const { record } = item;
    this.logger.error(
      {
        err,
        generation: {
          ...record,
          cost_nanos: String(record.cost_nanos),
          reference_cost_nanos: String(record.reference_cost_nanos),
        },
      },
      'could not settle generation',
    );
    item.done();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
