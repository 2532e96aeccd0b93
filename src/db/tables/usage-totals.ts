import type { Selectable } from 'kysely';
import type { AccessMode } from '../../core/access-mode.js';

/**
 * `usage_daily`: the generation records summed per UTC day, user, key, model and access mode, kept by a trigger on
 * `generations` in the statement that inserts them (migration 0012). Never written by the application.
 */
export interface UsageDailyTable {
  /**
   * UTC day of the records' created_at. A `date` column: the drivers parse it differently (pg into a local-time Date),
   * so queries compare it with `::date` parameters and read it through to_char(day, 'YYYY-MM-DD').
   */
  day: string;
  user_id: string;
  /** '' for requests made with an account token (no key). */
  api_key_id: string;
  /** The records' member (migration 0024); '' when they named none (written before: their key's member). */
  member_user_id: string;
  model: string;
  access_mode: AccessMode;
  requests: bigint;
  prompt_tokens: bigint;
  completion_tokens: bigint;
  cached_tokens: bigint;
  cache_write_tokens: bigint;
  reasoning_tokens: bigint;
  cost_nanos: bigint;
  reference_cost_nanos: bigint;
  /** Response-cache hits, counted here instead of in `requests` (migration 0013). */
  cache_hits: bigint;
  /** What those hits saved: their originals' cost less their charge. */
  cache_saved_nanos: bigint;
}

/** `usage_key_totals`: one key's records over its whole life (same trigger). */
export interface UsageKeyTotalsTable {
  api_key_id: string;
  requests: bigint;
  cost_nanos: bigint;
}

/** `generation_retention`: one row once records were pruned; those created before `pruned_before` may be gone. */
export interface GenerationRetentionTable {
  singleton: boolean;
  pruned_before: Date;
}

export type UsageDailyRow = Selectable<UsageDailyTable>;
