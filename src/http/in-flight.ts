// Counts requests still being handled (including their settle step), so shutdown can wait for them.
import type { Middleware } from 'koa';

export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  middleware(): Middleware {
    // Chained with then() as the request span is (request-span.ts, where the async form with `await next()` in
    // try/finally measured ~5% more serving-thread CPU; here the difference was within noise). Koa's next() never
    // throws, it rejects.
    return (_ctx, next) => {
      this.count++;
      return next().then(this.leave, (err: unknown) => {
        this.leave();
        throw err;
      });
    };
  }

  private readonly leave = (): void => {
    this.count--;
    if (this.count === 0) this.waiters.splice(0).forEach((wake) => wake());
  };

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
