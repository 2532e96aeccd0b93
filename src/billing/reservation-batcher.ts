// Concurrent requests of one user reserve credits together: requests arriving in the same event-loop turn are
// summed into one conditional UPDATE. Only when the sum does not fit are they reserved one by one, so the
// outcome is the same as reserving each alone, with a fraction of the database round trips under load.
import type { Db } from '../db/database.js';
import { reserveCredits, type ReserveResult } from '../repositories/credits.js';

interface Waiting {
  amountNanos: bigint;
  resolve: (result: ReserveResult) => void;
  reject: (err: unknown) => void;
}

export class ReservationBatcher {
  private readonly waiting = new Map<string, Waiting[]>();

  constructor(private readonly db: Db) {}

  reserve(userId: string, amountNanos: bigint): Promise<ReserveResult> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(userId);
      if (queue) queue.push({ amountNanos, resolve, reject });
      else {
        this.waiting.set(userId, [{ amountNanos, resolve, reject }]);
        setImmediate(() => void this.flush(userId));
      }
    });
  }

  private async flush(userId: string): Promise<void> {
    const batch = this.waiting.get(userId) ?? [];
    this.waiting.delete(userId);
    try {
      if (batch.length > 1) {
        const total = batch.reduce((sum, item) => sum + item.amountNanos, 0n);
        const together = await reserveCredits(this.db, { userId, amountNanos: total });
        if (together.ok) {
          for (const item of batch) item.resolve(together);
          return;
        }
      }
      for (const item of batch) item.resolve(await reserveCredits(this.db, { userId, amountNanos: item.amountNanos }));
    } catch (err) {
      for (const item of batch) item.reject(err);
    }
  }
}
