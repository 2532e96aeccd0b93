// A generation record → the GenerationData wire shape, shared by GET /generation and GET /generations.
import type { components } from '../../generated/openapi-types.js';
import type { GenerationView } from '../services/generations.js';
import { nanosToUsd } from '../core/money.js';

type GenerationData = components['schemas']['GenerationData'];

export function toWireGeneration(row: GenerationView): GenerationData {
  return {
    id: row.id,
    model: row.model,
    provider_name: row.provider,
    upstream_id: row.upstream_id,
    created_at: row.created_at.toISOString(),
    streamed: row.streamed,
    cancelled: row.status === 'aborted',
    finish_reason: row.finish_reason,
    status: row.status,
    error_code: row.error_code,
    tokens_prompt: row.prompt_tokens,
    tokens_completion: row.completion_tokens,
    native_tokens_cached: row.cached_tokens,
    native_tokens_reasoning: row.reasoning_tokens,
    web_search_requests: row.web_search_requests,
    tool_uses: row.tool_uses ?? {},
    // The serving attempt's (generation-record.ts).
    served_options: row.attempts?.[row.attempts.length - 1]?.served ?? {},
    total_cost: nanosToUsd(row.cost_nanos),
    access_mode: row.access_mode,
    reference_cost: row.reference_cost_nanos === null ? null : nanosToUsd(row.reference_cost_nanos),
    latency: row.latency_ms,
    app_title: row.app_title,
    http_referer: row.app_referer,
    task_id: row.task_id,
    api_format: row.api_format,
    attempts: row.attempts ?? null,
    cache_hit: row.cache_hit,
    cache_savings: nanosToUsd(row.cache_saved_nanos),
    usage_estimated: row.usage_estimated,
    byok: row.byok,
    guardrails: row.guardrails ?? [],
  };
}
