import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { GatewayError } from '../core/gateway-error.js';
import { findGenerationForUser } from '../repositories/generations.js';
import { nanosToUsd } from '../billing/money.js';

export function getGeneration(deps: Deps): Handler {
  return async (api, ctx) => {
    const id = String(api.request.query.id);
    // Read-your-writes: a generation answered a moment ago may still sit in this instance's settlement queue.
    await deps.settlements.flushed();
    // No id holds a NUL character (PostgreSQL text cannot even be asked for one): such a record does not exist.
    const row = id.includes('\u0000') ? undefined : await findGenerationForUser(deps.db, { userId: principalOf(ctx).userId, id });
    // Another user's generation answers exactly like a missing one.
    if (!row) throw new GatewayError(404, `Generation ${id} not found`, { id });
    ctx.body = {
      data: {
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
        total_cost: nanosToUsd(row.cost_nanos),
        access_mode: row.access_mode,
        reference_cost: row.reference_cost_nanos === null ? null : nanosToUsd(row.reference_cost_nanos),
        latency: row.latency_ms,
        app_title: row.app_title,
        http_referer: row.app_referer,
        task_id: row.task_id,
        api_format: row.api_format,
        attempts: row.attempts ?? null,
      },
    };
  };
}
