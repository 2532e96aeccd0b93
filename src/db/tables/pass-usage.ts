import type { Generated, Insertable, Selectable } from 'kysely';

/** `reserved`: an admitted request's upper bound, held until it settles; `settled`: its real reference cost. */
export type PassUsageStatus = 'reserved' | 'settled';

/** `pass_usage`: reference cost of each pass-mode generation, summed over the quota windows. */
export interface PassUsageTable {
  id: Generated<bigint>;
  user_id: string;
  generation_id: string | null;
  reference_cost_nanos: bigint;
  status: Generated<PassUsageStatus>;
  created_at: Generated<Date>;
}

export type PassUsageRow = Selectable<PassUsageTable>;
export type NewPassUsage = Insertable<PassUsageTable>;
