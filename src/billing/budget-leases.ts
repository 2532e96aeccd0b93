// Budgets admitted in memory, as credits are (credit-leases.ts): this process leases a share of each budget period's
// remainder (budget_leases, migration 0016) and admits a request by taking its upper bound out of the lease, so a
// request normally runs no SQL statement for its budgets. A lease running low is topped up in the background; one
// too short for the request is extended first (one statement). Settlement (settle_generations) takes each request's
// cost off the period and the lease; the hold's rest comes back to the lease in memory (returnHolds). Leases are
// renewed by this process's heartbeat, reclaimed when it dies, and given back when idle or at a graceful stop, so
// another instance can lease what this one does not use.
// Without a holder (no heartbeat: a process that does not keep leases) every request holds its own amount on the
// period row, which settlement releases.
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { KeyLimitReset } from '../db/tables/api-keys.js';
import { SessionBook } from './session-book.js';
import {
  dropHolderBudgetLeases,
  extendBudgetLease,
  periodKey,
  reclaimExpiredBudgetLeases,
  renewBudgetLeases,
  shrinkBudgetLease,
  type BudgetPeriod,
  type ExtendBudgetResult,
} from '../repositories/budget-leases.js';

/** Which budget a refusal names (error.metadata.budget). */
export type BudgetLevel = 'organization' | 'member' | 'key' | 'session';

/** One budget period a request must fit in, with the limit this process knows of it. */
export interface BudgetPool extends BudgetPeriod {
  level: BudgetLevel;
  limitNanos: bigint;
  /** The period's length (a refusal says when it resets). */
  reset: KeyLimitReset | null;
}

/** What a request holds of one pool; settlement sends it to settle_generations. */
export interface BudgetPoolHold extends BudgetPeriod {
  heldNanos: bigint;
  /** The lease it was taken from and its holder (absent: a one-request hold on the period row). */
  lease?: BudgetLease;
  holder?: string;
  /** The tightest remainder this process knows of after the hold (the x-modelgate-budget-remaining header). */
  remainingNanos: bigint;
}

export type BudgetReservation =
  | { ok: true; holds: BudgetPoolHold[] }
  | {
      ok: false;
      pool: BudgetPool;
      spentNanos: bigint;
      leasedNanos: bigint;
      /** Of leasedNanos, what this process leases and no request of its own holds. */
      freeNanos: bigint;
    };

/** One budget period's lease in this process. */
export class BudgetLease {
  /** Leased and not held by a request in flight (negative after a request cost more than it held). */
  free = 0n;
  /** Requests admitted and not yet settled. */
  holds = 0;
  lastUsedAt = 0;
  lastGrantNanos = 0n;
  /** The period's spend as this process last saw it (an extension's answer) plus what it settled since. */
  spentNanos = 0n;
  /** The limit the lease was granted under: a lowered limit gives the unused part back before anything else. */
  limitNanos: bigint;
  extending?: Promise<ExtendBudgetResult>;
  /** Reclaimed by another process (this one looked dead): holds in flight no longer count against it. */
  lost = false;

  constructor(
    readonly period: BudgetPeriod,
    limitNanos: bigint,
  ) {
    this.limitNanos = limitNanos;
  }

  /** Settlement: the request's hold comes back, less what it cost. */
  returnHold(heldNanos: bigint, costNanos: bigint): void {
    this.holds -= 1;
    this.spentNanos += costNanos;
    if (!this.lost) this.free += heldNanos - costNanos;
  }
}

export interface BudgetLeaseOptions {
  /** This process (credit_leases' holder id); undefined: one-request holds, no leases. */
  holder?: string;
  ttlSeconds: number;
  idleReleaseMs: number;
  /** One extension asks for at least this many upper bounds of the requesting request. */
  extensionMultiple: bigint;
  maxExtensionMultiple: bigint;
  /** Milliseconds clock (injected in tests). */
  clock?: () => number;
}

export class BudgetLeases {
  private readonly leases = new Map<string, BudgetLease>();
  private readonly extensions = new Set<Promise<unknown>>();
  /** The sessions this process served: their budgets and spend. */
  readonly sessions: SessionBook;
  private readonly clock: () => number;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    readonly options: BudgetLeaseOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.sessions = new SessionBook(db, logger, this.clock);
  }

  /** Holds `amountNanos` in every pool, or none of them: the first pool that cannot cover it is named. */
  async reserve(pools: readonly BudgetPool[], amountNanos: bigint): Promise<BudgetReservation> {
    const holds: BudgetPoolHold[] = [];
    for (const pool of pools) {
      const held = await this.reserveOne(pool, amountNanos);
      if (!held.ok) {
        for (const hold of holds) await this.release(hold);
        return held;
      }
      holds.push(held.hold);
    }
    return { ok: true, holds };
  }

  /** Gives a hold back unused (a request refused later in admission, or that ended before anything was recorded). */
  async release(hold: BudgetPoolHold): Promise<void> {
    if (hold.lease) hold.lease.returnHold(hold.heldNanos, 0n);
    else await shrinkBudgetLease(this.db, { ...hold, amountNanos: hold.heldNanos });
  }

  private async reserveOne(
    pool: BudgetPool,
    amountNanos: bigint,
  ): Promise<{ ok: true; hold: BudgetPoolHold } | Extract<BudgetReservation, { ok: false }>> {
    const { holder } = this.options;
    if (holder === undefined) {
      const result = await extendBudgetLease(this.db, { ...pool, minNanos: amountNanos, wantNanos: amountNanos });
      if (!result.ok)
        return { ok: false, pool, spentNanos: result.spentNanos, leasedNanos: result.leasedNanos, freeNanos: 0n };
      const remainingNanos = pool.limitNanos - result.spentNanos - result.leasedNanos;
      return { ok: true, hold: { ...periodOf(pool), heldNanos: amountNanos, remainingNanos } };
    }
    for (;;) {
      const lease = this.leaseOf(pool);
      if (pool.limitNanos < lease.limitNanos && lease.free > 0n && !lease.extending) {
        // Lowered: what this process leased under the old limit goes back before it is looked at again.
        const giving = lease.free;
        lease.free = 0n;
        await shrinkBudgetLease(this.db, { ...lease.period, holder, amountNanos: giving });
      }
      lease.limitNanos = pool.limitNanos;
      if (lease.free >= amountNanos) {
        lease.free -= amountNanos;
        lease.holds += 1;
        lease.lastUsedAt = this.clock();
        if (lease.free < lease.lastGrantNanos / 4n && !lease.extending) this.topUp(lease, pool, amountNanos);
        const remainingNanos = pool.limitNanos - lease.spentNanos - amountNanos;
        return { ok: true, hold: { ...lease.period, heldNanos: amountNanos, lease, holder, remainingNanos } };
      }
      if (lease.extending) {
        await lease.extending.catch(() => undefined);
        continue;
      }
      const minNanos = amountNanos - lease.free;
      const result = await this.track(
        lease,
        this.extend(lease, pool, { minNanos, wantNanos: this.wanted(lease, amountNanos) }),
      );
      if (!result.ok && lease.free < amountNanos) {
        const freeNanos = lease.free > 0n ? lease.free : 0n;
        return { ok: false, pool, spentNanos: result.spentNanos, leasedNanos: result.leasedNanos, freeNanos };
      }
    }
  }

  private wanted(lease: BudgetLease, amountNanos: bigint): bigint {
    const { extensionMultiple, maxExtensionMultiple } = this.options;
    const doubled = lease.lastGrantNanos * 2n;
    const floor = amountNanos * extensionMultiple;
    const cap = amountNanos * maxExtensionMultiple;
    return doubled < floor ? floor : doubled > cap ? cap : doubled;
  }

  private topUp(lease: BudgetLease, pool: BudgetPool, amountNanos: bigint): void {
    // Awaited by no request: a refusal only means later requests extend (or are refused) themselves.
    this.track(
      lease,
      this.extend(lease, pool, { minNanos: amountNanos, wantNanos: this.wanted(lease, amountNanos) }),
    ).catch((err: unknown) => this.logger.warn({ err, budget: lease.period.budgetId }, 'budget lease top-up failed'));
  }

  private track(lease: BudgetLease, work: Promise<ExtendBudgetResult>): Promise<ExtendBudgetResult> {
    const running = work.finally(() => {
      if (lease.extending === running) lease.extending = undefined;
      this.extensions.delete(running);
    });
    lease.extending = running;
    this.extensions.add(running);
    return running;
  }

  private async extend(
    lease: BudgetLease,
    pool: BudgetPool,
    amounts: { minNanos: bigint; wantNanos: bigint },
  ): Promise<ExtendBudgetResult> {
    const { minNanos, wantNanos } = amounts;
    const result = await extendBudgetLease(this.db, {
      ...lease.period,
      holder: this.options.holder,
      limitNanos: pool.limitNanos,
      minNanos,
      wantNanos,
    });
    lease.spentNanos = result.spentNanos;
    if (result.ok) {
      lease.free += result.grantedNanos;
      lease.lastGrantNanos = result.grantedNanos;
    }
    return result;
  }

  private leaseOf(pool: BudgetPool): BudgetLease {
    const key = periodKey(pool);
    let lease = this.leases.get(key);
    if (!lease) {
      lease = new BudgetLease(periodOf(pool), pool.limitNanos);
      this.leases.set(key, lease);
    }
    return lease;
  }

  /** Resolves when every extension started so far has ended (tests, close). */
  async extensionsDone(): Promise<void> {
    while (this.extensions.size > 0) await Promise.allSettled([...this.extensions]);
  }

  /** Heartbeat, reclamation of dead processes' leases, and idle leases given back (the credit leases' tick). */
  async tick(): Promise<void> {
    const { holder } = this.options;
    if (holder === undefined) return;
    const held = await renewBudgetLeases(this.db, holder);
    for (const [key, lease] of this.leases) {
      if (lease.lastGrantNanos === 0n || held.has(key) || lease.extending) continue;
      lease.lost = true;
      lease.free = 0n;
      this.leases.delete(key);
      this.logger.warn({ budget: lease.period.budgetId }, 'budget lease was reclaimed by another process');
    }
    const reclaimed = await reclaimExpiredBudgetLeases(this.db, this.options.ttlSeconds);
    if (reclaimed > 0) this.logger.warn({ reclaimed }, 'reclaimed budget leases of gateway processes that stopped');
    await this.releaseIdle();
  }

  /**
   * A budget's limit changed (another process may have lowered it): the unused part of every lease of it, in every
   * period, goes back, so no process keeps admitting against what it leased under the old limit. The next request
   * leases again under the limit it knows.
   */
  async giveBack(budgetId: string): Promise<void> {
    for (const lease of [...this.leases.values()]) {
      if (lease.period.budgetId !== budgetId) continue;
      // A grant in flight lands first, then goes back with the rest.
      await lease.extending?.catch(() => undefined);
      await this.giveBackFree(lease);
    }
  }

  /** The lease's unused part goes back to its period (kept when the statement fails, to try again later). */
  private async giveBackFree(lease: BudgetLease): Promise<void> {
    if (lease.free <= 0n) return;
    const giving = lease.free;
    lease.free = 0n;
    try {
      await shrinkBudgetLease(this.db, { ...lease.period, holder: this.options.holder, amountNanos: giving });
    } catch (err) {
      lease.free += giving;
      throw err;
    }
  }

  /** Gives back the unused part of every lease not used for `idleMs`. */
  async releaseIdle(idleMs = this.options.idleReleaseMs): Promise<void> {
    const idleSince = this.clock() - idleMs;
    for (const [key, lease] of [...this.leases]) {
      if ((idleMs > 0 && lease.lastUsedAt > idleSince) || lease.extending) continue;
      await this.giveBackFree(lease);
      if (lease.holds === 0 && lease.free === 0n && this.leases.get(key) === lease) this.leases.delete(key);
    }
  }

  /** Graceful stop, after every settlement was written: every lease goes back to its period. */
  async close(): Promise<void> {
    await this.extensionsDone();
    this.leases.clear();
    if (this.options.holder !== undefined) await dropHolderBudgetLeases(this.db, this.options.holder);
  }
}

function periodOf(pool: BudgetPeriod): BudgetPeriod {
  return { budgetId: pool.budgetId, periodStart: pool.periodStart };
}
