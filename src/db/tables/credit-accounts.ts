import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * `credit_accounts`: one row per user with credits. Invariants kept by the repository SQL:
 * balance = total_granted - total_used, and balance >= reserved >= 0.
 */
export interface CreditAccountsTable {
  user_id: string;
  balance_nanos: Generated<bigint>;
  reserved_nanos: Generated<bigint>;
  total_granted_nanos: Generated<bigint>;
  total_used_nanos: Generated<bigint>;
  /** Last change of the balance (grant, adjustment, settle); reservations do not touch it. */
  updated_at: Generated<Date>;
}

export type CreditAccountRow = Selectable<CreditAccountsTable>;
export type NewCreditAccount = Insertable<CreditAccountsTable>;
export type CreditAccountUpdate = Updateable<CreditAccountsTable>;
