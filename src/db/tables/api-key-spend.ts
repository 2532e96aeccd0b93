import type { Selectable } from 'kysely';

/**
 * `api_key_spend`: a limited key's spend and in-flight holds in one reset period (migration 0007), as releases before
 * migration 0023 kept them; a key's limit is now a budget (budget_spend), and this table is written only by processes
 * of those releases during an upgrade (a trigger counts their costs in the key's budget too).
 */
export interface ApiKeySpendTable {
  key_id: string;
  /** Start of the reset period (UTC); 1970-01-01 for a key whose limit never resets. */
  period_start: Date;
  spent_nanos: bigint;
  reserved_nanos: bigint;
}

export type ApiKeySpendRow = Selectable<ApiKeySpendTable>;
