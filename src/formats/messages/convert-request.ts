// A Messages request → the internal (chat-completions) request every provider adapter takes.
// thinking `enabled` + budget_tokens → reasoning.max_tokens (Anthropic's own unit: the native adapter sends it back
// as budget_tokens unchanged); `disabled` → reasoning off; tool_choice any → required, tool → the named function;
// disable_parallel_tool_use → parallel_tool_calls false; stop_sequences → stop; metadata.user_id → user; top_k rides
// as the extra top-level field adapters already read.
import type { ChatCompletionRequest, ToolDefinition } from '../../core/chat-types.js';
import { convertMessages, invalidRequest, systemMessages } from './convert-messages.js';
import type { MessagesCountTokensRequest, MessagesRequest, MessagesTool, MessagesToolChoice } from './wire-types.js';

function convertTool(tool: MessagesTool, i: number): ToolDefinition {
  if (tool.type && tool.type !== 'custom') {
    throw invalidRequest(`tools[${i}]: Anthropic server tools ("${tool.type}") are not supported by this gateway`, `tools[${i}].type`);
  }
  const fn: ToolDefinition['function'] = { name: tool.name, parameters: (tool.input_schema ?? { type: 'object', properties: {} }) as Record<string, unknown> };
  if (tool.description) fn.description = tool.description;
  return { type: 'function', function: fn };
}

function toolChoice(choice: MessagesToolChoice): Pick<ChatCompletionRequest, 'tool_choice' | 'parallel_tool_calls'> {
  const out: Pick<ChatCompletionRequest, 'tool_choice' | 'parallel_tool_calls'> = {};
  switch (choice.type) {
    case 'auto':
      out.tool_choice = 'auto';
      break;
    case 'any':
      out.tool_choice = 'required';
      break;
    case 'none':
      out.tool_choice = 'none';
      break;
    case 'tool':
      if (!choice.name) throw invalidRequest('tool_choice.name is required when tool_choice.type is "tool"', 'tool_choice.name');
      out.tool_choice = { type: 'function', function: { name: choice.name } };
      break;
  }
  if (choice.disable_parallel_tool_use === true) out.parallel_tool_calls = false;
  return out;
}

/** The prompt part (messages, system, tools, tool_choice, thinking), shared with count_tokens. */
export function toInternalPrompt(body: MessagesCountTokensRequest, model: string): ChatCompletionRequest {
  const request: ChatCompletionRequest = { model, messages: [...systemMessages(body.system), ...convertMessages(body.messages)] };
  if (body.tools?.length) request.tools = body.tools.map(convertTool);
  if (body.tool_choice) Object.assign(request, toolChoice(body.tool_choice));
  const thinking = body.thinking;
  if (thinking?.type === 'enabled') {
    request.reasoning = typeof thinking.budget_tokens === 'number' ? { max_tokens: thinking.budget_tokens } : { enabled: true };
  } else if (thinking?.type === 'adaptive') request.reasoning = { enabled: true };
  else if (thinking?.type === 'disabled') request.reasoning = { enabled: false };
  return request;
}

/** output_config.effort → the gateway's effort levels (Anthropic's `max` is the top one, `xhigh`). */
function reasoningEffort(effort: string | undefined): 'low' | 'medium' | 'high' | 'xhigh' | undefined {
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

export function toInternalRequest(body: MessagesRequest, model: string, stream: boolean): ChatCompletionRequest {
  const request = toInternalPrompt(body, model);
  request.max_tokens = body.max_tokens;
  request.stream = stream;
  if (typeof body.temperature === 'number') request.temperature = body.temperature;
  if (typeof body.top_p === 'number') request.top_p = body.top_p;
  if (typeof body.top_k === 'number') (request as { top_k?: number }).top_k = body.top_k;
  if (body.stop_sequences?.length) request.stop = body.stop_sequences;
  // Claude Code sends `thinking: {type: "adaptive"}` with `output_config.effort`: the effort is the reasoning level.
  const effort = reasoningEffort(body.output_config?.effort);
  if (effort && request.reasoning?.enabled !== false && request.reasoning?.max_tokens === undefined) {
    request.reasoning = { effort };
  }
  if (typeof body.metadata?.user_id === 'string' && body.metadata.user_id !== '') request.user = body.metadata.user_id;
  // Routing (OpenRouter's fields) is the pipeline's: the door only carries it into the internal request.
  if (body.models !== undefined) request.models = body.models;
  if (body.provider !== undefined) request.provider = body.provider;
  return request;
}
