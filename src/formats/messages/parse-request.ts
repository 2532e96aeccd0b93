// A Messages request → the internal GenerationRequest (the translated lane).
// thinking `enabled` + budget_tokens → a reasoning budget (Anthropic's own unit: the Anthropic adapter sends it back
// as budget_tokens unchanged); `adaptive` → adaptive reasoning; `disabled` → reasoning off; output_config.effort →
// the effort (`max` is the gateway's top level, `xhigh`). tool_choice any → required; disable_parallel_tool_use →
// parallelToolCalls false; stop_sequences → stop; metadata.user_id → user. Tools without a type (or `custom`) are
// function tools; any other type is one of Anthropic's server tools, carried as a hosted tool. Routing fields
// (`models`, `provider`) and top-level fields the gateway does not model ride in extraFields.
import type { GenerationRequest, ReasoningRequest, Tool, ToolChoice } from '../../core/generation-request.js';
import { cacheOf, invalidRequest } from './parse-blocks.js';
import { parseSystem, parseTurns } from './parse-turns.js';
import type { MessagesCountTokensRequest, MessagesRequest, MessagesTool, MessagesToolChoice } from './wire-types.js';

const MAPPED_FIELDS = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'stream',
  'metadata',
  'output_config',
]);

function tool(wire: MessagesTool): Tool {
  const cache = cacheOf(wire);
  if (wire.type && wire.type !== 'custom') {
    const { type, cache_control: _cache, ...config } = wire as MessagesTool & Record<string, unknown>;
    return { type: 'hosted', name: String(type), config, ...(cache ? { cache } : {}) };
  }
  const out: Tool = {
    type: 'function',
    name: wire.name,
    parameters: (wire.input_schema ?? { type: 'object', properties: {} }) as Record<string, unknown>,
  };
  if (wire.description) out.description = wire.description;
  if (cache) out.cache = cache;
  return out;
}

function toolChoice(choice: MessagesToolChoice): ToolChoice | undefined {
  switch (choice.type) {
    case 'auto':
    case 'none':
      return { type: choice.type };
    case 'any':
      return { type: 'required' };
    case 'tool':
      if (!choice.name)
        throw invalidRequest('tool_choice.name is required when tool_choice.type is "tool"', 'tool_choice.name');
      return { type: 'tool', name: choice.name };
    default:
      return undefined;
  }
}

/** output_config.effort → the gateway's effort levels (Anthropic's `max` is the top one, `xhigh`). */
function effortOf(effort: string | undefined): ReasoningRequest['effort'] {
  switch (effort) {
    case 'low':
    case 'medium':
    case 'high':
      return effort;
    case 'max':
      return 'xhigh';
    default:
      return undefined;
  }
}

function reasoning(
  body: MessagesCountTokensRequest & Pick<MessagesRequest, 'output_config'>,
): ReasoningRequest | undefined {
  const thinking = body.thinking;
  const effort = effortOf(body.output_config?.effort);
  if (thinking?.type === 'disabled') return { enabled: false };
  if (thinking?.type === 'enabled') {
    return typeof thinking.budget_tokens === 'number'
      ? { budgetTokens: thinking.budget_tokens }
      : effort
        ? { enabled: true, effort }
        : { enabled: true };
  }
  // Claude Code sends `thinking: {type: "adaptive"}` with `output_config.effort`: the effort is the reasoning level.
  if (thinking?.type === 'adaptive') return effort ? { adaptive: true, effort } : { adaptive: true };
  return effort ? { effort } : undefined;
}

/** The prompt part (system, messages, tools, tool_choice, thinking), shared with count_tokens. */
export function parsePrompt(
  body: MessagesCountTokensRequest & Pick<MessagesRequest, 'output_config'>,
  model: string,
  stream = false,
): GenerationRequest {
  const request: GenerationRequest = {
    model,
    system: parseSystem(body.system),
    messages: parseTurns(body.messages),
    tools: (body.tools ?? []).map(tool),
    stream,
  };
  if (body.tool_choice) {
    const choice = toolChoice(body.tool_choice);
    if (choice) request.toolChoice = choice;
    if (body.tool_choice.disable_parallel_tool_use === true) request.parallelToolCalls = false;
  }
  const wanted = reasoning(body);
  if (wanted) request.reasoning = wanted;
  return request;
}

export function parseMessagesRequest(body: MessagesRequest, model: string, stream: boolean): GenerationRequest {
  const request = parsePrompt(body, model, stream);
  request.maxOutputTokens = body.max_tokens;
  if (typeof body.temperature === 'number') request.temperature = body.temperature;
  if (typeof body.top_p === 'number') request.topP = body.top_p;
  if (typeof body.top_k === 'number') request.topK = body.top_k;
  if (body.stop_sequences?.length) request.stop = body.stop_sequences;
  if (typeof body.metadata?.user_id === 'string' && body.metadata.user_id !== '') request.user = body.metadata.user_id;
  const extras = Object.entries(body).filter(([name, value]) => !MAPPED_FIELDS.has(name) && value !== undefined);
  if (extras.length > 0) request.extraFields = Object.fromEntries(extras);
  return request;
}
