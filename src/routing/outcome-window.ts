// The failure-rate rule's memory: an endpoint's successes and failures over the last `windowMs`, kept in a fixed
// ring of buckets (each windowMs / WINDOW_BUCKETS long) so an endpoint costs the same few numbers however busy it is.
// The window slides one bucket at a time: an outcome counts for between windowMs - bucketMs and windowMs.

/** Buckets per window; the Redis script keeps the same layout (fields s<bucket>, f<bucket>). */
export const WINDOW_BUCKETS = 10;

export function bucketMsOf(windowMs: number): number {
  return Math.max(1, Math.ceil(windowMs / WINDOW_BUCKETS));
}

export class OutcomeWindow {
  private readonly slots = new Array<number>(WINDOW_BUCKETS).fill(-1);
  private readonly ok = new Array<number>(WINDOW_BUCKETS).fill(0);
  private readonly failed = new Array<number>(WINDOW_BUCKETS).fill(0);
  private readonly bucketMs: number;

  constructor(windowMs: number) {
    this.bucketMs = bucketMsOf(windowMs);
  }

  record(now: number, failed: boolean): void {
    const bucket = Math.floor(now / this.bucketMs);
    const i = bucket % WINDOW_BUCKETS;
    if (this.slots[i] !== bucket) {
      // The slot held a bucket that has left the window: start it over.
      this.slots[i] = bucket;
      this.ok[i] = 0;
      this.failed[i] = 0;
    }
    if (failed) this.failed[i]++;
    else this.ok[i]++;
  }

  /** Outcomes inside the window ending at `now`. */
  totals(now: number): { total: number; failed: number } {
    const oldest = Math.floor(now / this.bucketMs) - WINDOW_BUCKETS + 1;
    let total = 0;
    let failed = 0;
    for (let i = 0; i < WINDOW_BUCKETS; i++) {
      if (this.slots[i] < oldest) continue;
      total += this.ok[i] + this.failed[i];
      failed += this.failed[i];
    }
    return { total, failed };
  }
}

/** The failure-rate rule: enough outcomes in the window, and at least `percent` of them failures. */
export function rateExceeded(failed: number, total: number, rule: { percent: number; minRequests: number }): boolean {
  return rule.percent > 0 && total >= rule.minRequests && failed * 100 >= rule.percent * total;
}
