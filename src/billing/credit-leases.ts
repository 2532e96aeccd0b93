// Credit admission without a database round trip per request. This process leases a slice of a user's unreserved
// balance (a durable hold in credit_accounts.reserved_nanos, recorded in credit_leases) and reserves each request's
// upper bound against that slice in memory. Settlement pays the real cost out of the lease (the settle_generations
// function, migrations 0005 and 0006) and the rest of the request's hold returns to the slice for the next request. The
// lease grows when requests need more, shrinks back to the account when the user goes idle, is renewed by a
// heartbeat, and is reclaimed by any other process when this one dies. No overdraft: the database only grants a
// lease out of the unreserved balance, and this process never reserves more than its lease in memory.
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import {
  dropHolderLeases,
  extendLease,
  reclaimExpiredLeases,
  renewLeases,
  shrinkLease,
  type ExtendLeaseResult,
} from '../repositories/credit-leases.js';

export interface CreditLeaseOptions {
  /** This process, as recorded in credit_leases.holder. */
  holder: string;
  /** A lease not renewed for this long is reclaimed by others (database clock). */
  ttlSeconds: number;
  /** Heartbeat and reclamation period; well under the TTL. */
  renewIntervalMs: number;
  /** A user's unused lease goes back to the account after this long without a request. */
  idleReleaseMs: number;
  /** How many of the requesting request's upper bound one extension asks for at least, so most requests need none. */
  extensionMultiple: bigint;
  /** Cap of one extension, in upper bounds of the requesting request (extensions double up to it under load). */
  maxExtensionMultiple: bigint;
}

export const DEFAULT_LEASE_OPTIONS: Omit<CreditLeaseOptions, 'holder'> = {
  ttlSeconds: 60,
  renewIntervalMs: 10_000,
  idleReleaseMs: 5_000,
  extensionMultiple: 16n,
  maxExtensionMultiple: 1024n,
};

/** One user's lease in this process. */
export class CreditLease {
  /** Leased and not held by a request in flight (negative after a request cost more than it held). */
  free = 0n;
  /** Requests admitted and not yet settled. */
  holds = 0;
  lastUsedAt = 0;
  /** When the database last granted an extension (a heartbeat older than that may miss the row). */
  extendedAt = 0;
  /** What the last extension granted: the next one asks for twice as much, so a busy user's lease grows to its load. */
  lastGrantNanos = 0n;
  extending?: Promise<ExtendLeaseResult>;
  /** Reclaimed by another process: the holds in flight no longer count against it. */
  lost = false;

  constructor(
    readonly holder: string,
    readonly userId: string,
  ) {}

  /** Settlement: the request's hold comes back to the lease, less what the request cost. */
  returnHold(heldNanos: bigint, costNanos: bigint): void {
    this.holds -= 1;
    if (!this.lost) this.free += heldNanos - costNanos;
  }
}

export type LeaseReservation = { ok: true; lease: CreditLease } | { ok: false; availableNanos: bigint };

export class CreditLeases {
  private readonly leases = new Map<string, CreditLease>();
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  /** Extensions in flight, background top-ups included: close waits for them so none lands after the leases are dropped. */
  private readonly extensions = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    readonly options: CreditLeaseOptions,
    private readonly clock: () => number = Date.now,
  ) {}

  get holder(): string {
    return this.options.holder;
  }

  /** Users with a lease in this process (Prometheus modelgate_credit_leases). */
  get size(): number {
    return this.leases.size;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.options.renewIntervalMs).unref();
  }

  /** Holds `amountNanos` for one request: in memory when the lease has room, else after extending the lease. */
  async reserve(userId: string, amountNanos: bigint): Promise<LeaseReservation> {
    if (amountNanos <= 0n) throw new RangeError('amountNanos must be positive');
    for (;;) {
      const lease = this.leaseOf(userId);
      if (lease.free >= amountNanos) {
        lease.free -= amountNanos;
        lease.holds += 1;
        lease.lastUsedAt = this.clock();
        // Running low: top up in the background, so the next requests find room instead of waiting for the database
        // (an extension waits for the account row, which settlement batches lock while they commit).
        if (lease.free < lease.lastGrantNanos / 4n && !lease.extending) this.topUp(lease, amountNanos);
        return { ok: true, lease };
      }
      if (lease.extending) {
        // One extension at a time per user; the others wait for it and look again.
        await lease.extending.catch(() => undefined);
        continue;
      }
      const result = await this.extend(lease, amountNanos - lease.free, this.extensionSize(lease, amountNanos));
      if (!result.ok && lease.free < amountNanos) {
        return { ok: false, availableNanos: (lease.free > 0n ? lease.free : 0n) + result.availableNanos };
      }
    }
  }

  /** Periodic work: heartbeat, reclaim dead processes' leases, give idle leases back. */
  tick(): Promise<void> {
    return (this.ticking ??= this.runTick().finally(() => {
      this.ticking = undefined;
    }));
  }

  /** Graceful stop, after every settlement has been written: all of this process's leases go back to the accounts. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
    await this.extensionsDone();
    this.leases.clear();
    await dropHolderLeases(this.db, this.holder);
  }

  private leaseOf(userId: string): CreditLease {
    let lease = this.leases.get(userId);
    if (!lease) {
      lease = new CreditLease(this.holder, userId);
      this.leases.set(userId, lease);
    }
    return lease;
  }

  /** Resolves when every extension started so far has ended (tests, close). */
  async extensionsDone(): Promise<void> {
    while (this.extensions.size > 0) await Promise.allSettled([...this.extensions]);
  }

  private extensionSize(lease: CreditLease, amountNanos: bigint): bigint {
    const { extensionMultiple, maxExtensionMultiple } = this.options;
    const doubled = lease.lastGrantNanos * 2n;
    const floor = amountNanos * extensionMultiple;
    const cap = amountNanos * maxExtensionMultiple;
    return doubled < floor ? floor : doubled > cap ? cap : doubled;
  }

  private topUp(lease: CreditLease, amountNanos: bigint): void {
    // Not awaited by any request; a refusal (balance short) only means later requests will extend, or get 402, themselves.
    this.extend(lease, amountNanos, this.extensionSize(lease, amountNanos)).catch((err: unknown) => {
      this.logger.warn({ err, user_id: lease.userId }, 'credit lease top-up failed');
    });
  }

  private async extend(lease: CreditLease, minNanos: bigint, wantNanos: bigint): Promise<ExtendLeaseResult> {
    const extending = extendLease(this.db, { holder: this.holder, userId: lease.userId, minNanos, wantNanos });
    lease.extending = extending;
    this.extensions.add(extending);
    void extending.catch(() => undefined).finally(() => this.extensions.delete(extending));
    try {
      const result = await extending;
      if (result.ok) {
        lease.free += result.grantedNanos;
        lease.lastGrantNanos = result.grantedNanos;
        lease.extendedAt = this.clock();
        if (lease.lost) this.logger.warn({ user_id: lease.userId }, 'extended a credit lease marked lost');
      }
      return result;
    } finally {
      lease.extending = undefined;
    }
  }

  private async runTick(): Promise<void> {
    try {
      await this.renew();
      const reclaimed = await reclaimExpiredLeases(this.db, this.options.ttlSeconds);
      if (reclaimed > 0) this.logger.warn({ reclaimed }, 'reclaimed credit leases of gateway processes that stopped renewing them');
      await this.releaseIdle();
    } catch (err) {
      this.logger.warn({ err }, 'credit lease upkeep failed; retrying on the next tick');
    }
  }

  private async renew(): Promise<void> {
    const startedAt = this.clock();
    const held = await renewLeases(this.db, this.holder);
    for (const lease of this.leases.values()) {
      if (held.has(lease.userId) || lease.extending || lease.extendedAt >= startedAt) continue;
      // Another process took this lease back (we looked dead): stop admitting against it.
      lease.lost = true;
      lease.free = 0n;
      this.leases.delete(lease.userId);
      this.logger.warn({ user_id: lease.userId }, 'credit lease was reclaimed by another process');
    }
  }

  /** Gives back the unused part of every lease not used for `idleMs` (the tick uses the configured idle time). */
  async releaseIdle(idleMs = this.options.idleReleaseMs): Promise<void> {
    const idleSince = this.clock() - idleMs;
    for (const lease of [...this.leases.values()]) {
      if ((idleMs > 0 && lease.lastUsedAt > idleSince) || lease.extending) continue;
      if (lease.free > 0n) {
        const giving = lease.free;
        lease.free = 0n;
        try {
          await shrinkLease(this.db, { holder: this.holder, userId: lease.userId, amountNanos: giving });
        } catch (err) {
          lease.free += giving;
          throw err;
        }
      }
      if (lease.holds === 0 && lease.free === 0n && this.leases.get(lease.userId) === lease) this.leases.delete(lease.userId);
    }
  }
}
