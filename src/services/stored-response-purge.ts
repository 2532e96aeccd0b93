// The hourly purge of expired stored responses, by each gateway process (several may purge at once: they skip each
// other's rows). A turn past its retention is never served even before this deletes it.
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import { purgeExpiredResponses } from './stored-responses.js';

export const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export class StoredResponsePurge {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly stopping = new AbortController();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  start(intervalMs = PURGE_INTERVAL_MS): void {
    this.timer ??= setInterval(() => void this.run(), intervalMs).unref();
    void this.run();
  }

  /** One pass (the one in progress, if any); never rejects. */
  run(): Promise<void> {
    if (this.stopping.signal.aborted) return Promise.resolve();
    this.running ??= purgeExpiredResponses(this.db, this.now(), this.stopping.signal)
      .then((deleted) => {
        if (deleted > 0) this.logger.info({ deleted }, 'purged expired stored responses');
      })
      .catch((err: unknown) => this.logger.warn({ err }, 'purging stored responses failed; retrying on the next pass'))
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
