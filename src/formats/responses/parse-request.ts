// A Responses API request → the internal GenerationRequest (the translated lane), or a 400 for what a stateless
// gateway cannot serve. Tools are read by parse-tools.ts, from `tools` and from the input's items. Echo fields
// (metadata, store, include) stay with the door: the Response object repeats them, providers never see them.
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerationRequest, ReasoningRequest, ResponseFormat, ToolChoice } from '../../core/generation-request.js';
import { parseInput } from './parse-input.js';
import { addTools, toolListOf } from './parse-tools.js';
import type { ResponseRequest } from './wire-types.js';

/** Fields mapped, read by the door, or echoed only: none of them is an extra for providers. */
const DOOR_FIELDS = new Set([
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_output_tokens',
  'temperature',
  'top_p',
  'reasoning',
  'text',
  'include',
  'metadata',
  'user',
  'stream',
  'store',
  'previous_response_id',
  'conversation',
  'prompt_cache_key',
  'prompt_cache_retention',
  'safety_identifier',
  'stream_options',
  'background',
  'truncation',
  'client_metadata',
]);

/** `autoCache`: ask for automatic cache breakpoints (the handler passes it: true unless `X-Modelgate-Auto-Cache: off`). */
export function parseResponseRequest(
  body: ResponseRequest,
  stream = body.stream === true,
  autoCache = false,
): GenerationRequest {
  rejectState(body);
  const raw = body as unknown as Record<string, unknown>;
  const { system, messages, tools: inputTools } = parseInput(body.input, body.instructions);
  // The request's tools first, then those the input declares (additional_tools items, tools a tool search loaded).
  const tools = toolListOf(body.tools, 'tools');
  addTools(tools, inputTools);
  const request: GenerationRequest = { model: body.model, system, messages, tools, stream };
  if (autoCache) request.autoCache = true;
  if (body.tool_choice !== undefined && body.tool_choice !== null) request.toolChoice = toToolChoice(body.tool_choice);
  if (typeof body.parallel_tool_calls === 'boolean') request.parallelToolCalls = body.parallel_tool_calls;
  if (typeof body.max_output_tokens === 'number') request.maxOutputTokens = body.max_output_tokens;
  if (typeof body.temperature === 'number') request.temperature = body.temperature;
  if (typeof body.top_p === 'number') request.topP = body.top_p;
  const reasoning: ReasoningRequest = {};
  if (body.reasoning?.effort) reasoning.effort = body.reasoning.effort;
  if (typeof body.reasoning?.summary === 'string') reasoning.summary = body.reasoning.summary;
  if (Object.keys(reasoning).length > 0) request.reasoning = reasoning;
  const format = body.text?.format;
  if (format) request.responseFormat = toResponseFormat(format);
  if (typeof body.text?.verbosity === 'string') request.verbosity = body.text.verbosity;
  if (typeof body.user === 'string') request.user = body.user;
  const cache: NonNullable<GenerationRequest['cache']> = {};
  if (typeof raw.prompt_cache_key === 'string') cache.key = raw.prompt_cache_key;
  if (typeof raw.prompt_cache_retention === 'string') cache.retention = raw.prompt_cache_retention;
  if (cache.key !== undefined || cache.retention !== undefined) request.cache = cache;
  if (typeof raw.safety_identifier === 'string') request.safetyIdentifier = raw.safety_identifier;
  const extras = Object.entries(raw).filter(([name, value]) => !DOOR_FIELDS.has(name) && value !== undefined);
  if (extras.length > 0) request.extraFields = Object.fromEntries(extras);
  return request;
}

/** Whether reasoning items carry `encrypted_content` (the request's `include` asks for it). */
export function includesEncryptedReasoning(body: ResponseRequest): boolean {
  return Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');
}

/** `previous_response_id` and `conversation` name state the gateway never keeps: 400, on every lane. */
export function rejectState(body: ResponseRequest): void {
  for (const field of ['previous_response_id', 'conversation'] as const) {
    const value = body[field];
    if (value !== undefined && value !== null) {
      throw new GatewayError(
        400,
        `Invalid request: ${field} is not supported; this gateway is stateless, so send the full conversation in input (with the earlier output items) on every request`,
        {
          field,
          reason: 'stateless',
        },
      );
    }
  }
}

function toToolChoice(choice: NonNullable<ResponseRequest['tool_choice']>): ToolChoice {
  if (typeof choice === 'string') return { type: choice };
  const named = choice as { type?: string; name?: string; namespace?: string };
  if (typeof named.name !== 'string') return { type: 'auto' };
  return typeof named.namespace === 'string'
    ? { type: 'tool', name: named.name, namespace: named.namespace }
    : { type: 'tool', name: named.name };
}

/** The emitted discriminated-union type loses `type`; this is the schema's shape. */
type TextFormat =
  | { type: 'text' | 'json_object' }
  | {
      type: 'json_schema';
      name: string;
      description?: string;
      schema: Record<string, unknown>;
      strict?: boolean | null;
    };

function toResponseFormat(wire: NonNullable<NonNullable<ResponseRequest['text']>['format']>): ResponseFormat {
  const format = wire as TextFormat;
  if (format.type !== 'json_schema') return { type: format.type };
  const out: ResponseFormat = { type: 'json_schema', name: format.name, schema: format.schema };
  if (typeof format.description === 'string') out.description = format.description;
  if (typeof format.strict === 'boolean') out.strict = format.strict;
  return out;
}
