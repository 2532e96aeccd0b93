// A settled credits request as the settlement queue writes it, for data-layer tests of settlement.
import type { NewGeneration } from '../../src/db/tables/generations.js';
import type { DbOrTrx } from '../../src/db/database.js';
import { settleGeneration } from '../../src/billing/settlement.js';
import { uniqueId } from './databases.js';

export function creditsGenerationRecord(userId: string, costNanos: bigint, id = uniqueId('gen-')): NewGeneration {
  return {
    id,
    user_id: userId,
    api_key_id: null,
    access_mode: 'credits',
    model: 'openai/gpt-test',
    provider: 'openai',
    upstream_model: 'gpt-test',
    upstream_id: null,
    streamed: false,
    finish_reason: 'stop',
    status: 'success',
    http_status: 200,
    error_code: null,
    error_message: null,
    prompt_tokens: 1,
    completion_tokens: 1,
    cached_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    cost_nanos: costNanos,
    reference_cost_nanos: null,
    latency_ms: 1,
    time_to_first_token_ms: null,
    app_title: null,
    app_referer: null,
    task_id: null,
  };
}

export interface SettledCredits {
  /** False when the generation was settled before (the call changed nothing). */
  fresh: boolean;
  /** What its ledger row debited (0 for a zero cost, which writes no row). */
  debitedNanos: bigint;
}

/** Settles one credits request that holds `reservedNanos` itself (no lease), as the settlement queue writes it. */
export async function settleCreditsRequest(
  db: DbOrTrx,
  input: { userId: string; generationId: string; reservedNanos: bigint; costNanos: bigint },
): Promise<SettledCredits> {
  const fresh = await settleGeneration(
    db,
    { mode: 'credits', userId: input.userId, reservedNanos: input.reservedNanos },
    creditsGenerationRecord(input.userId, input.costNanos, input.generationId),
  );
  const debit = await db
    .selectFrom('credit_ledger')
    .select('amount_nanos')
    .where('generation_id', '=', input.generationId)
    .where('kind', '=', 'debit')
    .executeTakeFirst();
  return { fresh: fresh === 1, debitedNanos: debit === undefined ? 0n : -debit.amount_nanos };
}
