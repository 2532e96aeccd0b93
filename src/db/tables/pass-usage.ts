import type { Generated, Insertable, Selectable } from 'kysely';

/** `pass_usage`: reference cost of each pass-mode generation, summed over rolling quota windows. */
export interface PassUsageTable {
  id: Generated<bigint>;
  user_id: string;
  generation_id: string | null;
  reference_cost_nanos: bigint;
  created_at: Generated<Date>;
}

export type PassUsageRow = Selectable<PassUsageTable>;
export type NewPassUsage = Insertable<PassUsageTable>;
