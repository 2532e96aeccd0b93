import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import type { GenerationsTable, NewGeneration } from '../db/tables/generations.js';

/** How one finished request settles, next to its generation record. */
export type GenerationSettlement = SettlementKind & {
  /**
   * What the request holds of its budgets (migration 0016): each hold's period gets the record's whole cost, and the
   * holder's lease gives up what the cost consumed (without a holder the hold itself is released); and the session
   * whose spend, requests, tokens and times grow by the record's.
   */
  budgets?: { holds: readonly SettledBudgetHold[]; sessionHash?: string };
};

export interface SettledBudgetHold {
  budgetId: string;
  periodStart: Date;
  heldNanos: bigint;
  holder?: string;
}

type SettlementKind =
  | { record: NewGeneration; settle: 'none' }
  | {
      record: NewGeneration;
      settle: 'credits';
      /** Not leased: the request's own hold, released. Leased: ignored (the cost is paid out of the lease). */
      reservedNanos: bigint;
      /** Admitted against this holder's credit lease (src/billing/credit-leases.ts). */
      leaseHolder?: string;
    }
  | { record: NewGeneration; settle: 'pass'; passUsageId?: bigint };

/**
 * Writes the records and settles those new to the table, atomically, in one statement (the `settle_generations`
 * function, src/db/functions/settle-generations.ts, which holds the debit rule and the lock order): a credits
 * request's debit and ledger row, its hold released or its cost paid out of its lease; a pass request's quota
 * reservation turned into its reference cost; each budget's hold (a key's limit included) turned into its spend. A
 * record already written is skipped with its settlement. Returns how many records were new.
 */
export async function settleGenerationBatch(db: DbOrTrx, items: readonly GenerationSettlement[]): Promise<number> {
  if (items.length === 0) return 0;
  const batch = JSON.stringify(items.map(settlementRow));
  const result = await sql<{ fresh: number }>`select settle_generations(${batch}::json) as fresh`.execute(db);
  return Number(result.rows[0]?.fresh ?? 0);
}

/** Every column of `generations` (the compiler names any one left out), then how the row settles. */
type SettlementRow = Record<keyof GenerationsTable, unknown> & {
  settle: 'credits' | 'pass' | null;
  reserved_nanos: string | null;
  lease_holder: string | null;
  pass_usage_id: string | null;
  budget_holds: { b: string; p: string; n: string; h: string | null }[] | null;
  session_hash: string | null;
};

/**
 * One element of the function's JSON batch: the record's columns (money as decimal strings) and its settlement.
 * Written out field by field (not `{ ...record }`): one object shape for every row, which V8 builds and
 * JSON.stringify walks fast; a spread plus eight more keys was ~1.7% of the gateway's CPU.
 */
function settlementRow(item: GenerationSettlement): SettlementRow {
  const r = item.record;
  return {
    id: r.id,
    user_id: r.user_id,
    api_key_id: r.api_key_id ?? null,
    member_user_id: r.member_user_id ?? null,
    access_mode: r.access_mode,
    model: r.model,
    provider: r.provider,
    upstream_model: r.upstream_model,
    upstream_id: r.upstream_id ?? null,
    streamed: r.streamed,
    finish_reason: r.finish_reason ?? null,
    status: r.status,
    http_status: r.http_status ?? null,
    error_code: r.error_code ?? null,
    error_message: r.error_message ?? null,
    prompt_tokens: r.prompt_tokens ?? null,
    completion_tokens: r.completion_tokens ?? null,
    cached_tokens: r.cached_tokens ?? null,
    cache_write_tokens: r.cache_write_tokens ?? null,
    reasoning_tokens: r.reasoning_tokens ?? null,
    cost_nanos: r.cost_nanos == null ? null : String(r.cost_nanos),
    reference_cost_nanos: r.reference_cost_nanos == null ? null : String(r.reference_cost_nanos),
    latency_ms: r.latency_ms,
    time_to_first_token_ms: r.time_to_first_token_ms ?? null,
    app_title: r.app_title ?? null,
    app_referer: r.app_referer ?? null,
    task_id: r.task_id ?? null,
    created_at: r.created_at instanceof Date ? r.created_at.toISOString() : (r.created_at ?? null),
    api_format: r.api_format ?? null,
    attempts: r.attempts ?? null,
    cache_hit: r.cache_hit ?? false,
    cache_saved_nanos: r.cache_saved_nanos == null ? '0' : String(r.cache_saved_nanos),
    usage_estimated: r.usage_estimated ?? false,
    web_search_requests: r.web_search_requests ?? 0,
    tool_uses: r.tool_uses ?? null,
    byok: r.byok ?? false,
    guardrails: r.guardrails ?? null,
    settle: item.settle === 'none' ? null : item.settle,
    reserved_nanos: item.settle === 'credits' ? String(item.reservedNanos) : null,
    lease_holder: item.settle === 'credits' ? (item.leaseHolder ?? null) : null,
    pass_usage_id: item.settle === 'pass' && item.passUsageId !== undefined ? String(item.passUsageId) : null,
    budget_holds:
      item.budgets === undefined || item.budgets.holds.length === 0
        ? null
        : item.budgets.holds.map((hold) => ({
            b: hold.budgetId,
            p: hold.periodStart.toISOString(),
            n: String(hold.heldNanos),
            h: hold.holder ?? null,
          })),
    session_hash: item.budgets?.sessionHash ?? null,
  };
}
