import type { Generated, Insertable, Selectable } from 'kysely';

/** Ledger entry kinds: grants are positive, debits are zero or negative, adjustments either sign. */
export type LedgerKind = 'grant' | 'debit' | 'adjustment';

/** `credit_ledger`: append-only; at most one `debit` row per generation id (partial unique index). */
export interface CreditLedgerTable {
  id: Generated<bigint>;
  user_id: string;
  kind: LedgerKind;
  amount_nanos: bigint;
  generation_id: string | null;
  note: string | null;
  created_at: Generated<Date>;
}

export type LedgerRow = Selectable<CreditLedgerTable>;
export type NewLedgerRow = Insertable<CreditLedgerTable>;
