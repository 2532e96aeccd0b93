// A chat-completions request → the internal GenerationRequest (the translated lane). Every field the spec models is
// mapped; the top-level fields it does not (OpenRouter's `transforms`, `logit_bias`, ...) ride in extraFields, for the
// adapters whose vendors take them. `stream` is decided by the door (Accept negotiation), not read here.
import type {
  GenerationRequest,
  ReasoningRequest,
  ResponseFormat,
  Tool,
  ToolChoice,
} from '../../core/generation-request.js';
import { parseMessages } from './parse-messages.js';
import type { ChatCompletionRequest, ReasoningConfig, ToolDefinition } from './wire-types.js';

/** Fields mapped into the internal request, or read by the door itself; every other top-level field is an extra. */
const MAPPED_FIELDS = new Set([
  'model',
  'messages',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'temperature',
  'top_p',
  'top_k',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'response_format',
  'user',
  'reasoning',
  'verbosity',
  'prompt_cache_key',
  'safety_identifier',
  'web_search_options',
]);

/**
 * OpenAI's `web_search_options` asks for a web search: the hosted `web_search` tool, as the Responses API names it,
 * with its settings in that API's shape (`user_location` flat), for the vendors that run one (tool-lowering/).
 */
function webSearchTool(options: unknown): Tool | undefined {
  if (options === null || typeof options !== 'object') return undefined;
  const { user_location: location, ...rest } = options as Record<string, unknown>;
  const config: Record<string, unknown> = { ...rest };
  const approximate = (location as { approximate?: unknown } | null | undefined)?.approximate;
  if (approximate !== null && typeof approximate === 'object')
    config.user_location = { type: 'approximate', ...approximate };
  return { type: 'hosted', name: 'web_search', config };
}

function tool(definition: ToolDefinition): Tool {
  const fn = definition.function;
  const out: Tool = { type: 'function', name: fn.name };
  if (fn.description !== undefined) out.description = fn.description;
  if (fn.parameters !== undefined) out.parameters = fn.parameters as Record<string, unknown>;
  if (typeof fn.strict === 'boolean') out.strict = fn.strict;
  return out;
}

function toolChoice(choice: NonNullable<ChatCompletionRequest['tool_choice']>): ToolChoice | undefined {
  if (typeof choice === 'object') return { type: 'tool', name: choice.function.name };
  switch (choice) {
    case 'auto':
    case 'none':
    case 'required':
      return { type: choice };
    default:
      return undefined;
  }
}

function reasoning(config: ReasoningConfig): ReasoningRequest {
  const out: ReasoningRequest = {};
  if (config.effort) out.effort = config.effort;
  if (typeof config.max_tokens === 'number') out.budgetTokens = config.max_tokens;
  if (typeof config.enabled === 'boolean') out.enabled = config.enabled;
  if (typeof config.exclude === 'boolean') out.exclude = config.exclude;
  return out;
}

/** The emitted union type loses `type`; this is the schema's shape. */
type WireFormat =
  | { type: 'text' | 'json_object' }
  | {
      type: 'json_schema';
      json_schema: { name: string; description?: string; schema?: Record<string, unknown>; strict?: boolean | null };
    };

export function responseFormatOf(wire: unknown): ResponseFormat | undefined {
  const format = wire as WireFormat | null | undefined;
  if (!format) return undefined;
  if (format.type === 'text' || format.type === 'json_object') return { type: format.type };
  if (format.type !== 'json_schema') return undefined;
  const out: ResponseFormat = { type: 'json_schema', name: format.json_schema.name };
  if (format.json_schema.description !== undefined) out.description = format.json_schema.description;
  if (format.json_schema.schema !== undefined) out.schema = format.json_schema.schema;
  if (typeof format.json_schema.strict === 'boolean') out.strict = format.json_schema.strict;
  return out;
}

const isNumber = (value: unknown): value is number => typeof value === 'number';

/** `autoCache`: ask for automatic cache breakpoints (the handler passes it: true unless `X-Modelgate-Auto-Cache: off`). */
export function parseChatRequest(body: ChatCompletionRequest, stream: boolean, autoCache = false): GenerationRequest {
  const raw = body as unknown as Record<string, unknown>;
  const { system, messages } = parseMessages(body.messages);
  const request: GenerationRequest = {
    model: body.model,
    system,
    messages,
    tools: (body.tools ?? []).map(tool),
    stream,
  };
  if (autoCache) request.autoCache = true;
  if (body.tool_choice !== undefined && body.tool_choice !== null) {
    const choice = toolChoice(body.tool_choice);
    if (choice) request.toolChoice = choice;
  }
  if (typeof body.parallel_tool_calls === 'boolean') request.parallelToolCalls = body.parallel_tool_calls;
  const cap = body.max_completion_tokens ?? body.max_tokens;
  if (isNumber(cap)) request.maxOutputTokens = cap;
  if (isNumber(body.temperature)) request.temperature = body.temperature;
  if (isNumber(body.top_p)) request.topP = body.top_p;
  if (isNumber(raw.top_k)) request.topK = raw.top_k;
  if (typeof body.stop === 'string') request.stop = [body.stop];
  else if (Array.isArray(body.stop)) request.stop = body.stop;
  if (isNumber(body.seed)) request.seed = body.seed;
  if (isNumber(body.presence_penalty)) request.presencePenalty = body.presence_penalty;
  if (isNumber(body.frequency_penalty)) request.frequencyPenalty = body.frequency_penalty;
  const format = responseFormatOf(body.response_format);
  if (format) request.responseFormat = format;
  if (body.reasoning) request.reasoning = reasoning(body.reasoning);
  if (typeof body.user === 'string') request.user = body.user;
  if (typeof raw.verbosity === 'string') request.verbosity = raw.verbosity;
  if (typeof raw.prompt_cache_key === 'string') request.cache = { key: raw.prompt_cache_key };
  if (typeof raw.safety_identifier === 'string') request.safetyIdentifier = raw.safety_identifier;
  const search = webSearchTool(raw.web_search_options);
  if (search) request.tools.push(search);
  const extras = Object.entries(raw).filter(([name, value]) => !MAPPED_FIELDS.has(name) && value !== undefined);
  if (extras.length > 0) request.extraFields = Object.fromEntries(extras);
  return request;
}
