// The Response object around the output: what the request asked for, echoed as OpenAI does, the status a finish
// reason gives, and usage with the gateway's cost. Shared by the JSON body and every lifecycle event of a stream.
import { nanosToUsd } from '../../core/money.js';
import type { FinishReason, StreamErrorCode } from '../../core/generation.js';
import type { GenerationIdentity, GenerationTotals } from '../../core/stream-renderer.js';
import { usageBreakdown } from '../shared/usage-breakdown.js';
import type { ResponseObject, ResponseOutputItem, ResponseRequest, ResponseUsage } from './wire-types.js';

/** The request fields a Response object repeats. */
export type ResponseEcho = Pick<
  ResponseObject,
  | 'instructions'
  | 'max_output_tokens'
  | 'parallel_tool_calls'
  | 'reasoning'
  | 'temperature'
  | 'text'
  | 'tool_choice'
  | 'tools'
  | 'top_p'
  | 'user'
  | 'metadata'
  | 'previous_response_id'
  | 'store'
>;

/** `kept`: the fields a kept answer shows (its `previous_response_id` and `store`); absent, the gateway kept nothing. */
export function echoOf(body: ResponseRequest, kept?: Readonly<Record<string, unknown>>): ResponseEcho {
  const echo: ResponseEcho = {
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    temperature: body.temperature ?? null,
    text: body.text ?? { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? null,
    user: body.user ?? null,
    metadata: body.metadata ?? {},
  };
  if (body.reasoning) echo.reasoning = body.reasoning;
  if (kept) Object.assign(echo, kept);
  return echo;
}

type Outcome = Pick<ResponseObject, 'status' | 'error' | 'incomplete_details'>;

export const IN_PROGRESS: Outcome = { status: 'in_progress', error: null, incomplete_details: null };

/** `length` and `content_filter` cut the output short: OpenAI calls that `incomplete`, with the reason. */
export function finishOutcome(finishReason: FinishReason): Outcome {
  if (finishReason === 'length')
    return { status: 'incomplete', error: null, incomplete_details: { reason: 'max_output_tokens' } };
  if (finishReason === 'content_filter')
    return { status: 'incomplete', error: null, incomplete_details: { reason: 'content_filter' } };
  if (finishReason === 'error') return failedOutcome('server_error', 'The provider reported an error');
  return { status: 'completed', error: null, incomplete_details: null };
}

/** The Responses API's error codes for the gateway's mid-stream ones. */
const ERROR_CODES: Record<StreamErrorCode, string> = {
  context_length_exceeded: 'context_length_exceeded',
  content_filter: 'content_filter',
  rate_limit: 'rate_limit_exceeded',
  server_error: 'server_error',
};

export function errorCode(code: StreamErrorCode): string {
  return ERROR_CODES[code];
}

export function failedOutcome(code: StreamErrorCode, message: string): Outcome {
  return { status: 'failed', error: { code: errorCode(code), message }, incomplete_details: null };
}

export function responseObject(
  identity: GenerationIdentity,
  echo: ResponseEcho,
  outcome: Outcome,
  output: ResponseOutputItem[],
  totals?: GenerationTotals,
): ResponseObject {
  const response: ResponseObject = {
    id: identity.id,
    object: 'response',
    created_at: identity.created,
    ...outcome,
    model: identity.model,
    output,
    previous_response_id: null,
    store: false,
    ...echo,
    truncation: 'disabled',
  };
  if (totals) response.usage = toResponseUsage(totals);
  return response;
}

export function toResponseUsage(totals: GenerationTotals): ResponseUsage {
  const usage = usageBreakdown(totals.usage);
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.totalTokens,
    cost: nanosToUsd(totals.costNanos),
    // Pass (subscription) requests report their reference value, which is measured against quotas, never charged.
    cost_details: { access_mode: totals.accessMode, charged: totals.accessMode === 'credits' && totals.costNanos > 0n },
  };
}
