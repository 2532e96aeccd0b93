// GenerationRequest → one POST /v1/messages. Only fields Anthropic accepts are written; the credential is the
// operator's key from ProviderConfig, never anything the client sent.
// Dropped on purpose (no Anthropic equivalent): seed, presence/frequency_penalty, response_format, logit_bias.
import type { GenerationRequest } from '../../core/generation-request.js';
import type { AdapterContext, UpstreamRequest } from '../adapter.js';
import { requireTranslatableTools } from '../translatable-tools.js';
import { addAutoBreakpoints } from './auto-cache.js';
import { convertMessages } from './convert-messages.js';
import { convertTools } from './convert-tools.js';
import { planOutput } from './plan-output.js';
import type { AnthropicMessage, AnthropicRequestBody } from './wire-types.js';

export const ANTHROPIC_VERSION = '2023-06-01';
export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** `${baseUrl}/v1/messages`; a base that already ends in /v1 (the compatibility-layer habit) is accepted too. */
export function messagesUrl(baseUrl: string): string {
  const base = (baseUrl || DEFAULT_BASE_URL).replace(/\/+$/, '');
  return base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
}

/**
 * With thinking on, Anthropic requires the last assistant turn that called tools to start with its
 * thinking block. A client that did not keep its reasoning records cannot satisfy that, so thinking stays
 * off for that request instead of failing it.
 */
function toolTurnCarriesThinking(messages: readonly AnthropicMessage[]): boolean {
  const last = [...messages].reverse().find((m) => m.role === 'assistant');
  if (!last || typeof last.content === 'string') return true;
  if (!last.content.some((block) => block.type === 'tool_use')) return true;
  const first = last.content[0];
  return first.type === 'thinking' || first.type === 'redacted_thinking';
}

/** Anthropic rejects empty and whitespace-only stop sequences. */
function stopSequences(stop: readonly string[] | undefined): string[] {
  return (stop ?? []).filter((s) => s.trim() !== '');
}

/**
 * Sampling, within Anthropic's rules:
 * - temperature is 0..1 there (0..2 at OpenAI-style doors): values above 1 are sent as 1, the closest
 *   Anthropic has; rescaling would change the meaning of every value the client sends;
 * - newer Claude models reject temperature and top_p together, so temperature (the common knob) wins;
 * - with thinking on, temperature and top_k cannot be changed and top_p must lie in 0.95..1.
 */
function applySampling(body: AnthropicRequestBody, request: GenerationRequest, thinking: boolean): void {
  const temperature =
    typeof request.temperature === 'number' ? Math.min(Math.max(request.temperature, 0), 1) : undefined;
  const topP = typeof request.topP === 'number' ? Math.min(Math.max(request.topP, 0), 1) : undefined;
  const topK = request.topK;
  if (thinking) {
    if (topP !== undefined) body.top_p = Math.max(topP, 0.95);
    return;
  }
  if (temperature !== undefined) body.temperature = temperature;
  else if (topP !== undefined) body.top_p = topP;
  if (typeof topK === 'number' && Number.isInteger(topK) && topK > 0) body.top_k = topK;
}

export function buildBody(request: GenerationRequest, ctx: AdapterContext): AnthropicRequestBody {
  requireTranslatableTools(request, `${ctx.model.id} at ${ctx.provider.id}`, (name) => /_\d{8}$/.test(name));
  const { system, messages } = convertMessages(request);
  const tools = convertTools(request);
  // Thinking is incompatible with a forced tool call; the client's explicit tool_choice wins.
  const thinkingAllowed = ctx.model.supportsReasoning && !tools.forcesToolUse && toolTurnCarriesThinking(messages);
  const plan = planOutput(request, ctx.model.maxOutputTokens, thinkingAllowed);

  const body: AnthropicRequestBody = {
    model: ctx.model.upstreamModel,
    max_tokens: plan.maxTokens,
    messages,
    stream: ctx.stream,
  };
  if (system !== undefined) body.system = system;
  const stop = stopSequences(request.stop);
  if (stop.length > 0) body.stop_sequences = stop;
  applySampling(body, request, plan.thinking !== undefined);
  if (tools.tools) body.tools = tools.tools;
  if (tools.tool_choice) body.tool_choice = tools.tool_choice;
  if (plan.thinking) body.thinking = plan.thinking;
  if (plan.output_config) body.output_config = plan.output_config;
  // Anthropic's abuse-monitoring id; it must stay opaque, which is what clients send in `user` anyway.
  if (typeof request.user === 'string' && request.user !== '') body.metadata = { user_id: request.user };
  if (request.autoCache === true) addAutoBreakpoints(body);
  return body;
}

export function buildRequest(request: GenerationRequest, ctx: AdapterContext): UpstreamRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.provider.headers ?? {})) headers[name.toLowerCase()] = value;
  // Set after the operator's static headers so they can never replace the protocol or auth headers.
  headers['content-type'] = 'application/json';
  headers.accept = ctx.stream ? 'text/event-stream' : 'application/json';
  // The Anthropic Messages front door passes the client's protocol headers through (beta features such as
  // interleaved thinking or 1h caching exist only with them); every other request speaks the default version.
  headers['anthropic-version'] = ctx.clientHeaders?.['anthropic-version'] ?? ANTHROPIC_VERSION;
  const beta = ctx.clientHeaders?.['anthropic-beta'];
  if (beta) headers['anthropic-beta'] = beta;
  if (ctx.provider.apiKey) headers['x-api-key'] = ctx.provider.apiKey;
  return {
    method: 'POST',
    url: messagesUrl(ctx.provider.baseUrl),
    headers,
    body: JSON.stringify(buildBody(request, ctx)),
  };
}
