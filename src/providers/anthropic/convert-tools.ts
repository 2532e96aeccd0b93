// Gateway tools / tool_choice / parallel_tool_calls → Anthropic `tools` and `tool_choice`.
import type { ChatCompletionRequest, ToolDefinition } from '../../core/chat-types.js';
import type { AnthropicTool, AnthropicToolChoice } from './wire-types.js';

export interface ConvertedTools {
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  /** tool_choice makes a tool call mandatory (`any` / `tool`), which Anthropic forbids with thinking on. */
  forcesToolUse: boolean;
}

function convertTool(tool: ToolDefinition): AnthropicTool {
  const parameters = tool.function.parameters;
  // input_schema is required and must be an object schema; "no parameters" is the empty object schema.
  const schema = parameters === undefined ? { type: 'object', properties: {} } : parameters.type === undefined ? { type: 'object', ...parameters } : parameters;
  const out: AnthropicTool = { name: tool.function.name, input_schema: schema };
  if (tool.function.description !== undefined && tool.function.description !== '') out.description = tool.function.description;
  return out;
}

function choiceOf(choice: ChatCompletionRequest['tool_choice']): AnthropicToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === 'object') return { type: 'tool', name: choice.function.name };
  switch (choice) {
    case 'auto':
      return { type: 'auto' };
    case 'none':
      return { type: 'none' };
    case 'required':
      return { type: 'any' };
    default:
      return undefined;
  }
}

export function convertTools(request: ChatCompletionRequest): ConvertedTools {
  // Anthropic's tool_choice has no meaning without tools, so both are sent together or not at all.
  if (!request.tools || request.tools.length === 0) return { forcesToolUse: false };
  const out: ConvertedTools = { tools: request.tools.map(convertTool), forcesToolUse: false };
  let choice = choiceOf(request.tool_choice);
  // parallel_tool_calls=false is a flag on the choice; `auto` is Anthropic's default choice to carry it.
  if (request.parallel_tool_calls === false && choice?.type !== 'none') {
    choice = { ...(choice ?? { type: 'auto' }), disable_parallel_tool_use: true } as AnthropicToolChoice;
  }
  if (choice) out.tool_choice = choice;
  out.forcesToolUse = choice?.type === 'any' || choice?.type === 'tool';
  return out;
}
