// Gateway ChatCompletionRequest → one vendor HTTP request. Only fields the vendor is known to accept are
// written; client headers and credentials never reach the vendor (the transport sends exactly this).
import type { ChatCompletionRequest, ToolDefinition } from '../../core/chat-types.js';
import type { AdapterContext, UpstreamRequest } from '../adapter.js';
import { convertMessages } from './convert-messages.js';
import { mapReasoning } from './map-reasoning.js';
import { resolveVendorProfile, type VendorProfile } from './vendors.js';

/** Fields of the gateway request this module maps itself; anything else counts as a client extra. */
const GATEWAY_FIELDS = new Set([
  'model', 'messages', 'stream', 'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls', 'temperature',
  'top_p', 'max_tokens', 'max_completion_tokens', 'stop', 'seed', 'presence_penalty', 'frequency_penalty',
  'response_format', 'user', 'reasoning',
]);

/** `${baseUrl}/chat/completions` without doubled slashes, whatever the operator typed. */
export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

function convertTool(tool: ToolDefinition): Record<string, unknown> {
  const fn: Record<string, unknown> = { name: tool.function.name };
  if (tool.function.description !== undefined) fn.description = tool.function.description;
  if (tool.function.parameters !== undefined) fn.parameters = tool.function.parameters;
  if (typeof tool.function.strict === 'boolean') fn.strict = tool.function.strict;
  return { type: 'function', function: fn };
}

/** Optional scalar fields copied as they are when present and not null. */
function copyPresent(body: Record<string, unknown>, request: Record<string, unknown>, fields: readonly string[]): void {
  for (const field of fields) {
    const value = request[field];
    if (value !== undefined && value !== null) body[field] = value;
  }
}

/** The output-token cap to send: the client's (max_completion_tokens wins, it is the newer name), else the model's if required. */
function outputCap(request: ChatCompletionRequest, ctx: AdapterContext, profile: VendorProfile): number | undefined {
  const fromClient = request.max_completion_tokens ?? request.max_tokens ?? undefined;
  if (typeof fromClient === 'number') return fromClient;
  return profile.requiresMaxTokens ? ctx.model.maxOutputTokens : undefined;
}

export function buildBody(request: ChatCompletionRequest, ctx: AdapterContext, profile: VendorProfile): Record<string, unknown> {
  const raw = request as unknown as Record<string, unknown>;
  const body: Record<string, unknown> = {
    model: ctx.model.upstreamModel,
    messages: convertMessages(request.messages, profile, `${ctx.model.id} at ${ctx.provider.id}`),
  };
  // OpenAI rejects tool_choice / parallel_tool_calls without tools, so they only travel together.
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(convertTool);
    copyPresent(body, raw, ['tool_choice', 'parallel_tool_calls']);
  }
  copyPresent(body, raw, ['temperature', 'top_p', 'stop', 'presence_penalty', 'frequency_penalty', 'response_format']);
  const cap = outputCap(request, ctx, profile);
  if (cap !== undefined) body[profile.maxTokensField] = cap;
  if (profile.seedField && request.seed !== undefined && request.seed !== null) body[profile.seedField] = request.seed;
  if (profile.acceptsUser && typeof request.user === 'string') body.user = request.user;
  Object.assign(body, mapReasoning(request.reasoning, profile, ctx.model.supportsReasoning, cap));
  for (const field of profile.passthroughFields) {
    if (!GATEWAY_FIELDS.has(field) && raw[field] !== undefined) body[field] = raw[field];
  }
  body.stream = ctx.stream;
  // Streamed usage is what the gateway bills from, so it is always requested where the vendor allows it.
  if (ctx.stream && profile.streamOptions) body.stream_options = { include_usage: true };
  return body;
}

export function buildRequest(request: ChatCompletionRequest, ctx: AdapterContext): UpstreamRequest {
  const profile = resolveVendorProfile(ctx.provider);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: ctx.stream ? 'text/event-stream' : 'application/json',
  };
  // A keyless provider (e.g. a local vLLM) gets no authorization header rather than "Bearer undefined".
  if (ctx.provider.apiKey) headers.authorization = `Bearer ${ctx.provider.apiKey}`;
  for (const [name, value] of Object.entries(ctx.provider.headers ?? {})) headers[name.toLowerCase()] = value;
  const baseUrl = ctx.provider.baseUrl || profile.defaultBaseUrl;
  // Operator misconfiguration (a generic vendor without <PROVIDER>_BASE_URL), not a client error.
  if (!baseUrl) throw new Error(`Provider ${ctx.provider.id} has no base URL configured`);
  return {
    method: 'POST',
    url: chatCompletionsUrl(baseUrl),
    headers,
    body: JSON.stringify(buildBody(request, ctx, profile)),
  };
}
