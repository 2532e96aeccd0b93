// Credit admission without a database round trip per request. This process leases a slice of a user's unreserved
// balance (a durable hold in credit_accounts.reserved_nanos, recorded in credit_leases) and reserves each request's
// upper bound against that slice in memory. Settlement pays the real cost out of the lease (the settle_generations
// function, migrations 0005 and 0006) and the rest of the request's hold returns to the slice for the next request. The
// lease grows when requests need more, shrinks back to the account when the user goes idle, is renewed by a
// heartbeat, and is reclaimed by any other process when this one dies. No admission beyond the money: the database
// only grants a lease out of the unreserved balance, and this process never reserves more than its lease in memory. A
// request that costs more than its hold is still paid in full (debt, migration 0011); when that leaves the account
// owing more than it holds, settlement recalls every lease of the user, so no process admits against them any more.
//
// A lease is an optimisation and never refuses a request the account can pay for. A grant is at most a share of
// the unreserved balance (beyond what the request needs), so one process cannot take it all ahead of need; a process
// that cannot get what a request needs recalls the other processes' leases (src/billing/lease-recalls.ts: they give
// back what no request of theirs holds, within milliseconds) and asks again; for a while after a recall every
// process that heard it leases only what each request needs, with no top-ups. A process that cannot hear recalls
// (its LISTEN connection is down) holds no unused lease: it gives its leases back and reserves each request
// directly on the account row.
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { NotificationSource } from '../db/notification-listener.js';
import {
  answerLeaseRecall,
  dropHolderLeases,
  extendLease,
  recallableCredit,
  reclaimExpiredLeases,
  renewLeases,
  shrinkLease,
  type ExtendLeaseResult,
  type HeldLease,
} from '../repositories/credit-leases.js';
import { reserveCredits } from '../repositories/credits.js';
import { encodeAnswer, LeaseRecalls } from './lease-recalls.js';
import { CreditLease, type CreditLeaseOptions } from './credit-lease.js';
import { BudgetLeases } from './budget-leases.js';

export { CreditLease, DEFAULT_LEASE_OPTIONS, type CreditLeaseOptions } from './credit-lease.js';

/** Without `lease`, the request holds its amount on the account row itself (reserved directly, settled without lease). */
export type LeaseReservation = { ok: true; lease?: CreditLease } | { ok: false; availableNanos: bigint };

export class CreditLeases {
  private readonly leases = new Map<string, CreditLease>();
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  /** Extensions in flight, background top-ups included: close waits for them so none lands after the leases are dropped. */
  private readonly extensions = new Set<Promise<unknown>>();
  private recallChannel?: LeaseRecalls;
  /** This process's leases of budget periods: the same holder, heartbeat, TTL and idle release as its credit leases. */
  readonly budgets: BudgetLeases;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    readonly options: CreditLeaseOptions,
    private readonly clock: () => number = Date.now,
  ) {
    this.budgets = new BudgetLeases(db, logger, {
      holder: options.holder,
      ttlSeconds: options.ttlSeconds,
      idleReleaseMs: options.idleReleaseMs,
      extensionMultiple: options.extensionMultiple,
      maxExtensionMultiple: options.maxExtensionMultiple,
      clock,
    });
  }

  get holder(): string {
    return this.options.holder;
  }

  /** The recall channel, once `listen` found one (a credit removal in this process recalls through it). */
  get recalls(): LeaseRecalls | undefined {
    return this.recallChannel;
  }

  /** Users with a lease in this process (Prometheus modelgate_credit_leases). */
  get size(): number {
    return this.leases.size;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.options.renewIntervalMs).unref();
  }

  /**
   * Joins the recall channel: from then on this process answers recalls and recalls others' leases when it runs
   * short. Without it (a database without URL or instance, tests of one process) it leases as if it were alone.
   */
  async listen(source: NotificationSource): Promise<void> {
    if (this.recallChannel !== undefined) return;
    const recalls = new LeaseRecalls(this.db, this.logger, this.options.recall);
    recalls.serve(this.holder, {
      giveBack: (userId) => this.giveBack(userId),
      contended: (userId) => {
        // Also without a lease here yet: a first grant of a share now would hold back what the asker needs.
        this.leaseOf(userId).contendedUntil = this.clock() + this.options.contendedMs;
      },
      budgetChanged: (budgetId) => this.budgets.giveBack(budgetId),
      listeningChanged: (listening) => {
        // Deaf to recalls: unused leases would starve the other processes, so they go back at once (and budget leases
        // could outlive a limit lowered meanwhile).
        if (!listening) {
          this.releaseIdle(0).catch((err: unknown) => this.logger.warn({ err }, 'could not give credit leases back'));
          this.budgets
            .releaseIdle(0)
            .catch((err: unknown) => this.logger.warn({ err }, 'could not give budget leases back'));
        }
      },
    });
    if (await recalls.listen(source)) this.recallChannel = recalls;
    else this.logger.warn('no notification channel: credit leases cannot be recalled by other instances');
  }

  /** Holds `amountNanos` for one request: in memory when the lease has room, else after extending the lease. */
  async reserve(userId: string, amountNanos: bigint): Promise<LeaseReservation> {
    if (amountNanos <= 0n) throw new RangeError('amountNanos must be positive');
    if (this.recallChannel !== undefined && !this.recallChannel.listening)
      return this.reserveDirectly(userId, amountNanos);
    for (;;) {
      const lease = this.leaseOf(userId);
      if (lease.free >= amountNanos) {
        lease.free -= amountNanos;
        lease.holds += 1;
        const now = this.clock();
        lease.lastUsedAt = now;
        // Running low: top up in the background, so the next requests find room instead of waiting for the database
        // (an extension waits for the account row, which settlement batches lock while they commit). Not while the
        // user's credit is contended: then the others need what a top-up would hold back.
        if (lease.free < lease.lastGrantNanos / 4n && !lease.extending && now >= lease.contendedUntil)
          this.topUp(lease, amountNanos);
        return { ok: true, lease };
      }
      if (lease.extending) {
        // One extension at a time per user; the others wait for it and look again.
        await lease.extending.catch(() => undefined);
        continue;
      }
      const result = await this.track(lease, this.acquire(lease, amountNanos));
      if (!result.ok && lease.free < amountNanos) {
        return { ok: false, availableNanos: (lease.free > 0n ? lease.free : 0n) + result.availableNanos };
      }
    }
  }

  /**
   * Periodic work: heartbeat, reclaim dead processes' credit and budget leases (a key's limit is a budget), give
   * idle leases back.
   */
  tick(): Promise<void> {
    this.ticking ??= this.runTick().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  /**
   * Graceful stop, after every settlement has been written: all of this process's leases go back to the accounts and
   * budget periods.
   */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
    await this.extensionsDone();
    this.leases.clear();
    try {
      await dropHolderLeases(this.db, this.holder);
      await this.budgets.close();
    } finally {
      // Also when the database is away: the listening connection must not keep the process alive.
      await this.recallChannel?.close();
    }
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
    // Not awaited by any request; a refusal (balance short) only means later requests will extend, or get 402,
    // themselves.
    this.track(lease, this.extend(lease, amountNanos, this.extensionSize(lease, amountNanos))).catch((err: unknown) => {
      this.logger.warn({ err, user_id: lease.userId }, 'credit lease top-up failed');
    });
  }

  /** Marks `work` as the lease's one extension in flight until it settles (requests wait for it, close too). */
  private track(lease: CreditLease, work: Promise<ExtendLeaseResult>): Promise<ExtendLeaseResult> {
    const running = work.finally(() => {
      if (lease.extending === running) lease.extending = undefined;
      this.extensions.delete(running);
    });
    lease.extending = running;
    this.extensions.add(running);
    return running;
  }

  /**
   * Extends the lease by what the request lacks; when the unreserved balance is short but other processes lease
   * enough, recalls their unused leases and asks again (a further round only while every holder answered: a round
   * that timed out means a holder that is gone, whose lease the heartbeat reclaims).
   */
  private async acquire(lease: CreditLease, amountNanos: bigint): Promise<ExtendLeaseResult> {
    let rounds = 0;
    for (;;) {
      // Settlements may have returned holds to the lease while a recall was answered.
      const minNanos = amountNanos - lease.free;
      if (minNanos <= 0n) return { ok: true, grantedNanos: 0n };
      const contended = this.clock() < lease.contendedUntil;
      const result = await this.extend(lease, minNanos, contended ? minNanos : this.extensionSize(lease, amountNanos));
      if (result.ok || this.recallChannel === undefined || rounds >= this.options.recallRounds) return result;
      if (result.availableNanos + leasedNanos(result.others) < minNanos) return result; // truly short: a 402
      lease.contendedUntil = this.clock() + this.options.contendedMs;
      rounds += 1;
      const answered = await this.recallChannel.recall(
        lease.userId,
        result.others.map((other) => other.holder),
      );
      // A holder that did not answer is gone (the heartbeat reclaims its lease): one last look, no more waiting.
      if (!answered) rounds = this.options.recallRounds;
    }
  }

  private async extend(lease: CreditLease, minNanos: bigint, wantNanos: bigint): Promise<ExtendLeaseResult> {
    const { holder, options } = this;
    const granting = extendLease(this.db, {
      holder,
      userId: lease.userId,
      minNanos,
      wantNanos,
      shareDivisor: options.shareDivisor,
    });
    lease.granting = granting;
    const result = await granting.finally(() => {
      if (lease.granting === granting) lease.granting = undefined;
    });
    if (result.ok) {
      lease.free += result.grantedNanos;
      lease.lastGrantNanos = result.grantedNanos;
      lease.extendedAt = this.clock();
      if (lease.lost) this.logger.warn({ user_id: lease.userId }, 'extended a credit lease marked lost');
    }
    return result;
  }

  /**
   * Without a working recall channel: each request holds its amount on the account row, and when that is short
   * while other processes lease enough, asks them for it (unheard answers: it looks again every poll interval,
   * until the recall timeout).
   */
  private async reserveDirectly(userId: string, amountNanos: bigint): Promise<LeaseReservation> {
    const recalls = this.recallChannel!;
    const deadline = this.clock() + recalls.options.timeoutMs;
    for (;;) {
      const reserved = await reserveCredits(this.db, { userId, amountNanos });
      if (reserved.ok) return { ok: true };
      const { availableNanos, leases } = await recallableCredit(this.db, userId, this.holder);
      if (availableNanos + leasedNanos(leases) < amountNanos || this.clock() >= deadline)
        return { ok: false, availableNanos };
      await recalls.recall(
        userId,
        leases.map((other) => other.holder),
      );
    }
  }

  /** Answers a recall: what no request of this process holds goes back to the account, and for a while no top-ups. */
  private async giveBack(userId: string): Promise<void> {
    const lease = this.leases.get(userId);
    let giving = 0n;
    if (lease !== undefined) {
      lease.contendedUntil = this.clock() + this.options.contendedMs;
      // A grant asked for before the recall (a share) lands first and goes back with the rest. Only the database
      // call is awaited, never a recall of our own: two processes recalling each other answer each other at once.
      await lease.granting?.catch(() => undefined);
      if (lease.free > 0n) giving = lease.free;
      lease.free -= giving;
    }
    try {
      await answerLeaseRecall(this.db, {
        holder: this.holder,
        userId,
        amountNanos: giving,
        payload: encodeAnswer(userId, this.holder),
      });
    } catch (err) {
      if (lease !== undefined && !lease.lost) lease.free += giving;
      throw err;
    }
  }

  private async runTick(): Promise<void> {
    try {
      await this.renew();
      const reclaimed = await reclaimExpiredLeases(this.db, this.options.ttlSeconds);
      if (reclaimed > 0)
        this.logger.warn({ reclaimed }, 'reclaimed credit leases of gateway processes that stopped renewing them');
      await this.releaseIdle();
      await this.budgets.tick();
    } catch (err) {
      this.logger.warn({ err }, 'credit lease upkeep failed; retrying on the next tick');
    }
  }

  private async renew(): Promise<void> {
    const startedAt = this.clock();
    const held = await renewLeases(this.db, this.holder);
    for (const lease of this.leases.values()) {
      // Never granted (a request refused, or only heard of in a recall): there was no row to lose.
      if (lease.lastGrantNanos === 0n || held.has(lease.userId) || lease.extending || lease.extendedAt >= startedAt)
        continue;
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
      if (lease.holds === 0 && lease.free === 0n && this.leases.get(lease.userId) === lease)
        this.leases.delete(lease.userId);
    }
  }
}

function leasedNanos(leases: readonly HeldLease[]): bigint {
  return leases.reduce((sum, lease) => sum + lease.amountNanos, 0n);
}
