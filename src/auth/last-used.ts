// last_used_at is informational, so it is written in one batched statement per interval instead of once per request.
import type { Logger } from '../logger.js';

export class LastUsedTracker {
  private pending = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly flushFn: (ids: string[], at: Date) => Promise<void>,
    private readonly logger: Logger,
    private readonly intervalMs = 1000,
  ) {}

  mark(id: string): void {
    this.pending.add(id);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const ids = [...this.pending];
    this.pending.clear();
    try {
      await this.flushFn(ids, new Date());
    } catch (err) {
      this.logger.warn({ err, count: ids.length }, 'could not record key last-used times');
    }
  }
}
