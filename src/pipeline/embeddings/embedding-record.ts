// What one embeddings request did → its generation record (api_format `embeddings`), written once at settlement
// through the same queue, debit rule and totals as a generation's.
import type { Admission } from '../../billing/admission.js';
import { memberOf, type Principal } from '../../auth/principal.js';
import type { CatalogEntry } from '../../catalog/types.js';
import type { GenerationAttempt, GenerationStatus, NewGeneration } from '../../db/tables/generations.js';
import type { TrackingHeaders } from '../generation-record.js';

export interface EmbeddingOutcome {
  status: GenerationStatus;
  httpStatus: number;
  errorCode?: string;
  errorMessage?: string;
  /** Tokens of the inputs that were embedded (the provider's count, or the gateway's where it gave none). */
  promptTokens: number;
  usageEstimated: boolean;
  /** Those tokens at the model's price. */
  costNanos: bigint;
}

export function embeddingRecord(input: {
  id: string;
  principal: Principal;
  entry: CatalogEntry;
  admission: Admission;
  outcome: EmbeddingOutcome;
  latencyMs: number;
  tracking: TrackingHeaders;
  attempts: GenerationAttempt[];
}): NewGeneration {
  const { principal, entry, outcome, tracking } = input;
  const isPass = input.admission.mode === 'pass';
  return {
    id: input.id,
    user_id: principal.organizationId,
    api_key_id: principal.kind === 'api_key' ? principal.credentialId : null,
    member_user_id: memberOf(principal),
    access_mode: input.admission.mode,
    model: entry.id,
    provider: entry.upstreamProvider,
    upstream_model: entry.upstreamModel,
    upstream_id: null,
    streamed: false,
    finish_reason: null,
    status: outcome.status,
    http_status: outcome.httpStatus,
    error_code: outcome.errorCode ?? null,
    error_message: outcome.errorMessage?.slice(0, 1000) ?? null,
    prompt_tokens: outcome.promptTokens,
    completion_tokens: 0,
    cached_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    cost_nanos: isPass ? 0n : outcome.costNanos,
    reference_cost_nanos: isPass ? outcome.costNanos : null,
    latency_ms: input.latencyMs,
    time_to_first_token_ms: null,
    app_title: tracking.appTitle,
    app_referer: tracking.appReferer,
    task_id: tracking.taskId,
    api_format: 'embeddings',
    attempts: input.attempts.length > 0 ? input.attempts : null,
    usage_estimated: outcome.usageEstimated,
  };
}
