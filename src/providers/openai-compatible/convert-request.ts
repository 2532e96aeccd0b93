// GenerationRequest → one vendor chat-completions request. Only fields the vendor is known to accept are written;
// client headers and credentials never reach the vendor (the transport sends exactly this).
import type { GenerationRequest, ResponseFormat, Tool, ToolChoice } from '../../core/generation-request.js';
import type { AdapterContext, UpstreamRequest } from '../adapter.js';
import { requireTranslatableTools } from '../translatable-tools.js';
import { convertMessages } from './convert-messages.js';
import { mapReasoning } from './map-reasoning.js';
import { resolveVendorProfile, type VendorProfile } from './vendors.js';

/** `${baseUrl}/chat/completions` without doubled slashes, whatever the operator typed. */
export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

function convertTool(tool: Tool & { type: 'function' }): Record<string, unknown> {
  const fn: Record<string, unknown> = { name: tool.name };
  if (tool.description !== undefined) fn.description = tool.description;
  if (tool.parameters !== undefined) fn.parameters = tool.parameters;
  if (typeof tool.strict === 'boolean') fn.strict = tool.strict;
  return { type: 'function', function: fn };
}

function convertToolChoice(choice: ToolChoice): unknown {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type;
}

function convertResponseFormat(format: ResponseFormat): Record<string, unknown> {
  if (format.type !== 'json_schema') return { type: format.type };
  const schema: Record<string, unknown> = { name: format.name };
  if (format.description !== undefined) schema.description = format.description;
  if (format.schema !== undefined) schema.schema = format.schema;
  if (format.strict !== undefined) schema.strict = format.strict;
  return { type: 'json_schema', json_schema: schema };
}

/** Fields the gateway models under the names a vendor passes through (vendors.ts `passthroughFields`). */
function modeledExtra(request: GenerationRequest, name: string): unknown {
  switch (name) {
    case 'top_k':
      return request.topK;
    case 'verbosity':
      return request.verbosity;
    case 'prompt_cache_key':
      return request.cache?.key;
    case 'prompt_cache_retention':
      return request.cache?.retention;
    case 'safety_identifier':
      return request.safetyIdentifier;
    default:
      return undefined;
  }
}

/** The output-token cap to send: the client's, else the model's where the vendor requires one. */
function outputCap(request: GenerationRequest, ctx: AdapterContext, profile: VendorProfile): number | undefined {
  if (typeof request.maxOutputTokens === 'number') return request.maxOutputTokens;
  return profile.requiresMaxTokens ? ctx.model.maxOutputTokens : undefined;
}

export function buildBody(
  request: GenerationRequest,
  ctx: AdapterContext,
  profile: VendorProfile,
): Record<string, unknown> {
  const endpoint = `${ctx.model.id} at ${ctx.provider.id}`;
  requireTranslatableTools(request, endpoint);
  const body: Record<string, unknown> = {
    model: ctx.model.upstreamModel,
    messages: convertMessages(request, profile, endpoint),
  };
  // OpenAI rejects tool_choice / parallel_tool_calls without tools, so they only travel together.
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => convertTool(tool as Tool & { type: 'function' }));
    if (request.toolChoice) body.tool_choice = convertToolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stop !== undefined && request.stop.length > 0) body.stop = request.stop;
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  if (request.responseFormat) body.response_format = convertResponseFormat(request.responseFormat);
  const cap = outputCap(request, ctx, profile);
  if (cap !== undefined) body[profile.maxTokensField] = cap;
  if (profile.seedField && request.seed !== undefined) body[profile.seedField] = request.seed;
  if (profile.acceptsUser && typeof request.user === 'string') body.user = request.user;
  Object.assign(body, mapReasoning(request.reasoning, profile, ctx.model.supportsReasoning, cap));
  for (const field of profile.passthroughFields) {
    const value = modeledExtra(request, field) ?? request.extraFields?.[field];
    if (value !== undefined && body[field] === undefined) body[field] = value;
  }
  body.stream = ctx.stream;
  // Streamed usage is what the gateway bills from, so it is always requested where the vendor allows it.
  if (ctx.stream && profile.streamOptions) body.stream_options = { include_usage: true };
  return body;
}

export function buildRequest(request: GenerationRequest, ctx: AdapterContext): UpstreamRequest {
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
