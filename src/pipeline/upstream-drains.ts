// The streams of this process being read on after their client left (upstream-link.ts), so that a graceful stop can
// cut them at the end of its grace period instead of waiting up to the whole drain bound: a stop never hangs on a
// drain, and each cut stream still settles (with the stated estimate) before the database closes.

export interface Drainable {
  /** Stops reading now: the upstream exchange is aborted and the estimate is billed. */
  cut(): void;
}

export class UpstreamDrains {
  private readonly draining = new Set<Drainable>();
  private stopped = false;

  /** True once the process stops: a client leaving from now on gets its upstream cut at once, not drained. */
  get closed(): boolean {
    return this.stopped;
  }

  get size(): number {
    return this.draining.size;
  }

  add(drain: Drainable): void {
    this.draining.add(drain);
  }

  delete(drain: Drainable): void {
    this.draining.delete(drain);
  }

  /** Cuts every drain in progress and refuses new ones (server.ts, when the grace period is over). */
  close(): void {
    this.stopped = true;
    for (const drain of [...this.draining]) drain.cut();
    this.draining.clear();
  }
}
