// A Responses API request → the internal (chat-completions) request, or a 400 for what a stateless gateway cannot
// serve. Echo fields (metadata, store) stay with the door: the Response object repeats them, providers never see them.
import type { ChatCompletionRequest, ToolDefinition } from '../../core/chat-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import { convertInput } from './convert-input.js';
import type { ResponseRequest, ResponseTool } from './wire-types.js';

type ChatToolChoice = NonNullable<ChatCompletionRequest['tool_choice']>;
type ChatResponseFormat = NonNullable<ChatCompletionRequest['response_format']>;

export function parseResponseRequest(body: ResponseRequest): ChatCompletionRequest {
  rejectState(body);
  const request: ChatCompletionRequest = { model: body.model, messages: convertInput(body.input, body.instructions) };
  if (body.tools?.length) request.tools = body.tools.map(toFunctionTool);
  if (body.tool_choice !== undefined) request.tool_choice = toToolChoice(body.tool_choice);
  if (typeof body.parallel_tool_calls === 'boolean') request.parallel_tool_calls = body.parallel_tool_calls;
  if (typeof body.max_output_tokens === 'number') request.max_completion_tokens = body.max_output_tokens;
  if (typeof body.temperature === 'number') request.temperature = body.temperature;
  if (typeof body.top_p === 'number') request.top_p = body.top_p;
  if (body.reasoning?.effort) request.reasoning = { effort: body.reasoning.effort };
  // Routing fields mean the same on every door; the shared pipeline acts on them.
  if (body.models !== undefined) request.models = body.models;
  if (body.provider !== undefined) request.provider = body.provider;
  const format = body.text?.format;
  if (format) request.response_format = toResponseFormat(format);
  if (typeof body.user === 'string') request.user = body.user;
  return request;
}

/** Whether reasoning items carry `encrypted_content` (the request's `include` asks for it). */
export function includesEncryptedReasoning(body: ResponseRequest): boolean {
  return Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');
}

function rejectState(body: ResponseRequest): void {
  for (const field of ['previous_response_id', 'conversation'] as const) {
    const value = body[field];
    if (value !== undefined && value !== null) {
      throw new GatewayError(400, `Invalid request: ${field} is not supported; this gateway is stateless, so send the full conversation in input (with the earlier output items) on every request`, {
        field,
        reason: 'stateless',
      });
    }
  }
}

function toFunctionTool(tool: ResponseTool, index: number): ToolDefinition {
  if (tool.type !== 'function') {
    throw new GatewayError(400, `Invalid request: tools[${index}] has type "${tool.type}"; only function tools are supported (the gateway runs no built-in tools)`, {
      field: `tools[${index}].type`,
      reason: 'tool_type_not_supported',
      tool_type: tool.type,
    });
  }
  if (typeof tool.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) {
    throw new GatewayError(400, `Invalid request: tools[${index}].name must be 1 to 64 letters, digits, underscores or dashes`, { field: `tools[${index}].name` });
  }
  const fn: ToolDefinition['function'] = { name: tool.name };
  if (typeof tool.description === 'string') fn.description = tool.description;
  if (tool.parameters && typeof tool.parameters === 'object') fn.parameters = tool.parameters;
  if (typeof tool.strict === 'boolean') fn.strict = tool.strict;
  return { type: 'function', function: fn };
}

function toToolChoice(choice: NonNullable<ResponseRequest['tool_choice']>): ChatToolChoice {
  if (typeof choice === 'string') return choice;
  return { type: 'function', function: { name: choice.name } };
}

/** The emitted discriminated-union type loses `type`; this is the schema's shape. */
type TextFormat = { type: 'text' | 'json_object' } | { type: 'json_schema'; name: string; description?: string; schema: Record<string, unknown>; strict?: boolean | null };

function toResponseFormat(wire: NonNullable<NonNullable<ResponseRequest['text']>['format']>): ChatResponseFormat {
  const format = wire as TextFormat;
  if (format.type !== 'json_schema') return { type: format.type } as ChatResponseFormat;
  const schema: { name: string; schema: Record<string, unknown>; description?: string; strict?: boolean } = { name: format.name, schema: format.schema };
  if (typeof format.description === 'string') schema.description = format.description;
  if (typeof format.strict === 'boolean') schema.strict = format.strict;
  return { type: 'json_schema', json_schema: schema } as ChatResponseFormat;
}
