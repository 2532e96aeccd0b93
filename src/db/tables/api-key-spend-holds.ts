import type { Generated, Selectable } from 'kysely';

/**
 * `api_key_spend_holds`: what one gateway process's requests in flight hold of a limited key's period (migration
 * 0009). Invariant kept by those releases and settle_generations: a period's
 * api_key_spend.reserved_nanos is the sum of its rows here. Written only by releases before migration 0023.
 */
export interface ApiKeySpendHoldsTable {
  key_id: string;
  period_start: Date;
  /** The holding gateway process, as in credit_leases.holder. */
  holder: string;
  held_nanos: bigint;
  /** Heartbeat; a non-empty row not renewed within the lease TTL belongs to a dead process and is reclaimed. */
  renewed_at: Generated<Date>;
}

export type ApiKeySpendHoldRow = Selectable<ApiKeySpendHoldsTable>;
