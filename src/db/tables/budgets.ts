import type { Generated, Selectable } from 'kysely';

/** `budget_spend` (migration 0016): one budget's spend and leased amount in one reset period. */
export interface BudgetSpendTable {
  /** `organization:<org>`, `member:<org>:<user>`, `key:<org>:<key id>` or `session:<org>:<hash>` (src/billing/). */
  budget_id: string;
  /** Start of the reset period (UTC); 1970-01-01 for a budget that never resets. */
  period_start: Date;
  spent_nanos: Generated<bigint>;
  /** What gateway processes lease of the period's remainder (the sum of its budget_leases rows). */
  leased_nanos: Generated<bigint>;
}

/** `budget_leases` (migration 0016): what one gateway process leases of one budget period. */
export interface BudgetLeasesTable {
  budget_id: string;
  period_start: Date;
  holder: string;
  amount_nanos: Generated<bigint>;
  renewed_at: Generated<Date>;
}

/** `sessions` (migration 0016): a conversation of an organization, named by the hash of its client-given key. */
export interface SessionsTable {
  organization_id: string;
  session_hash: string;
  budget_limit_nanos: bigint | null;
  spent_nanos: Generated<bigint>;
  requests: Generated<bigint>;
  prompt_tokens: Generated<bigint>;
  completion_tokens: Generated<bigint>;
  cached_tokens: Generated<bigint>;
  reasoning_tokens: Generated<bigint>;
  first_request_at: Date | null;
  last_request_at: Date | null;
  created_at: Generated<Date>;
}

export type SessionRow = Selectable<SessionsTable>;
