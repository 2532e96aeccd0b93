import type { Generated, Selectable } from 'kysely';

/**
 * `credit_leases`: credits a gateway process holds for one user and admits requests against in memory.
 * Invariant kept by src/repositories/credit-leases.ts and settle_generations (migrations 0005 and 0006): every lease's
 * amount is part of credit_accounts.reserved_nanos of its user.
 */
export interface CreditLeasesTable {
  /** The holding gateway process (random per start). */
  holder: string;
  user_id: string;
  amount_nanos: bigint;
  /** Heartbeat; a lease not renewed within the lease TTL belongs to a dead process and is reclaimed. */
  renewed_at: Generated<Date>;
}

export type CreditLeaseRow = Selectable<CreditLeasesTable>;
