// GenerationMeter + request context → the generation row, written once at settlement.
import type { ApiFormat, GenerationAttempt, NewGeneration } from '../db/tables/generations.js';
import { memberOf, type Principal } from '../auth/principal.js';
import type { Admission } from '../billing/admission.js';
export type { ApiFormat };
import type { GenerationMeter } from './generation-meter.js';
import type { Target } from '../routing/resolve-target.js';
import { billedToolUses } from '../core/tool-uses.js';
import type { NormalizedUsage } from '../core/generation.js';

export interface TrackingHeaders {
  appTitle: string | null;
  appReferer: string | null;
  taskId: string | null;
}

/**
 * The attempts with the serving (last) one's served price options: kept there, in the record's JSON of attempts, as
 * they belong to the endpoint that answered.
 */
function withServed(attempts: GenerationAttempt[] | null, usage: NormalizedUsage): GenerationAttempt[] | null {
  if (!usage.served || !attempts || attempts.length === 0) return attempts;
  const last = attempts.length - 1;
  return attempts.map((attempt, i) => (i === last ? { ...attempt, served: usage.served } : attempt));
}

export function generationRecord(input: {
  meter: GenerationMeter;
  principal: Principal;
  target: Target;
  admission: Admission;
  streamed: boolean;
  /** Usage valued at the entry's prices: the charge for credits, the reference cost for pass. */
  costNanos: bigint;
  tracking: TrackingHeaders;
  apiFormat: ApiFormat;
  /** Every upstream attempt (the last one served or failed last); null when no upstream was called. */
  attempts: GenerationAttempt[] | null;
  /** Names of the guardrails that fired on the request or its answer. */
  guardrails?: readonly string[];
}): NewGeneration {
  const { meter, principal, target, admission, tracking } = input;
  const usage = meter.finalUsage();
  // Pass requests are never charged: their cost is the reference value measured against the quota.
  const isPass = admission.mode === 'pass';
  return {
    id: meter.id,
    user_id: principal.organizationId,
    api_key_id: principal.kind === 'api_key' ? principal.credentialId : null,
    member_user_id: memberOf(principal),
    access_mode: admission.mode,
    model: target.entry.id,
    provider: target.entry.upstreamProvider,
    upstream_model: target.entry.upstreamModel,
    upstream_id: meter.upstreamId ?? null,
    streamed: input.streamed,
    finish_reason: meter.finishReason ?? null,
    status: meter.outcome,
    http_status: meter.httpStatus,
    error_code: meter.errorCode ?? null,
    error_message: meter.errorMessage?.slice(0, 1000) ?? null,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    cached_tokens: usage.cachedTokens,
    cache_write_tokens: usage.cacheWriteTokens,
    reasoning_tokens: usage.reasoningTokens,
    web_search_requests: usage.webSearchRequests ?? 0,
    tool_uses: billedToolUses(usage.toolUses) ?? null,
    cost_nanos: isPass ? 0n : input.costNanos,
    reference_cost_nanos: isPass ? input.costNanos : null,
    latency_ms: meter.latencyMs(),
    time_to_first_token_ms: meter.timeToFirstTokenMs() ?? null,
    app_title: tracking.appTitle,
    app_referer: tracking.appReferer,
    task_id: tracking.taskId,
    api_format: input.apiFormat,
    attempts: withServed(input.attempts, usage),
    usage_estimated: meter.usageIsEstimated,
    byok: target.byok !== undefined,
    guardrails: input.guardrails !== undefined && input.guardrails.length > 0 ? [...input.guardrails] : null,
  };
}
