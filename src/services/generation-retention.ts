// Retention of generation records: records older than N whole UTC days are deleted in batches; the running totals
// (GET /key, /activity, /admin/usage, key limits) and the ledger keep everything. Run by `modelgate generations
// prune` and, with MODELGATE_GENERATION_RETENTION_DAYS, every hour by each gateway process.
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import { dayStart } from '../core/utc-calendar.js';
import { deleteGenerationsBefore, markPrunedBefore } from '../repositories/generation-retention.js';

const DAY_MS = 86_400_000;
/** Small enough that one batch (one short transaction) never holds up settlement for long. */
export const PRUNE_BATCH_SIZE = 5_000;
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The cutoff for keeping `days` days: the UTC midnight `days` days before today's. Today's records are always kept
 * (the free allowance reads them), and a cutoff at a midnight keeps every report with midnight bounds exact.
 */
export function retentionCutoff(now: Date, days: number): Date {
  if (!Number.isInteger(days) || days < 1) throw new RangeError('days must be a whole number of at least 1');
  return new Date(dayStart(now).getTime() - days * DAY_MS);
}

export async function pruneGenerations(
  db: Db,
  input: { days: number; now: Date; batchSize?: number; signal?: AbortSignal },
): Promise<{ cutoff: Date; deleted: number }> {
  const cutoff = retentionCutoff(input.now, input.days);
  const batchSize = input.batchSize ?? PRUNE_BATCH_SIZE;
  await markPrunedBefore(db, cutoff);
  let deleted = 0;
  for (;;) {
    const batch = await deleteGenerationsBefore(db, cutoff, batchSize);
    deleted += batch;
    // Stopped between batches: what is left waits for the next pass.
    if (batch < batchSize || input.signal?.aborted) return { cutoff, deleted };
  }
}

/** The hourly pruning of one gateway process (several processes may prune at once: they skip each other's rows). */
export class GenerationRetention {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly stopping = new AbortController();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly days: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  start(intervalMs = PRUNE_INTERVAL_MS): void {
    this.timer ??= setInterval(() => void this.run(), intervalMs).unref();
    void this.run();
  }

  /** One pruning pass (the one in progress, if any); never rejects. */
  run(): Promise<void> {
    if (this.stopping.signal.aborted) return Promise.resolve();
    this.running ??= pruneGenerations(this.db, { days: this.days, now: this.now(), signal: this.stopping.signal })
      .then(({ cutoff, deleted }) => {
        if (deleted > 0) this.logger.info({ deleted, cutoff: cutoff.toISOString() }, 'pruned old generation records');
      })
      .catch((err: unknown) =>
        this.logger.warn({ err }, 'pruning generation records failed; retrying on the next pass'),
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Stops the schedule and waits for a pass in progress to end its batch (before the database closes). */
  async stop(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
