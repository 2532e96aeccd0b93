// Counts requests still being handled (including their settle step), and turns on open WebSockets, so shutdown can
// wait for them.
import type { Middleware } from 'koa';

export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  middleware(): Middleware {
    return async (_ctx, next) => {
      const done = this.begin();
      try {
        await next();
      } finally {
        done();
      }
    };
  }

  /** Counts one more until the returned function is called (once): a turn on a WebSocket, which outlives its request. */
  begin(): () => void {
    this.count++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.count--;
      if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    };
  }

  get size(): number {
    return this.count;
  }

  /** Resolves true when nothing is in flight, false if the timeout came first. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
