// One process's lease of one user's credits (the in-memory side of a credit_leases row) and the lease policy's knobs.
// src/billing/credit-leases.ts manages them.
import type { ExtendLeaseResult } from '../repositories/credit-leases.js';
import { DEFAULT_RECALL_OPTIONS, type LeaseRecallOptions } from './lease-recalls.js';

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
  /** One grant takes at most 1/shareDivisor of the unreserved balance, unless the request alone needs more. */
  shareDivisor: bigint;
  /** After a recall touched a user's leases, for this long: extensions ask only for what the request needs, no top-ups. */
  contendedMs: number;
  /** Recall rounds one admission may run while every holder answers (a later round catches credit taken meanwhile). */
  recallRounds: number;
  recall: LeaseRecallOptions;
}

export const DEFAULT_LEASE_OPTIONS: Omit<CreditLeaseOptions, 'holder'> = {
  ttlSeconds: 60,
  renewIntervalMs: 10_000,
  idleReleaseMs: 5_000,
  extensionMultiple: 16n,
  maxExtensionMultiple: 1024n,
  shareDivisor: 4n,
  contendedMs: 2_000,
  recallRounds: 2,
  recall: DEFAULT_RECALL_OPTIONS,
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
  /** The one extension in flight (with the recalls it runs): requests wait for it. */
  extending?: Promise<ExtendLeaseResult>;
  /** Its database call in flight, if any (a recall's answer waits for it, so the grant goes back too). */
  granting?: Promise<ExtendLeaseResult>;
  /** Reclaimed by another process: the holds in flight no longer count against it. */
  lost = false;
  /** Until then (clock ms) a recall touched this user's leases: lease only what each request needs. */
  contendedUntil = 0;

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
