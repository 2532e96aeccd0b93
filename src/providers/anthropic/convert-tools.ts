// Internal tools / tool choice / parallel_tool_calls → Anthropic `tools` and `tool_choice`.
import type { GenerationRequest, Tool } from '../../core/generation-request.js';
import { withCache } from './convert-content.js';
import type { AnthropicServerTool, AnthropicTool, AnthropicToolChoice } from './wire-types.js';

export interface ConvertedTools {
  tools?: Array<AnthropicTool | AnthropicServerTool>;
  tool_choice?: AnthropicToolChoice;
  /** tool_choice makes a tool call mandatory (`any` / `tool`), which Anthropic forbids with thinking on. */
  forcesToolUse: boolean;
}

function convertTool(tool: Tool & { type: 'function' }): AnthropicTool {
  const parameters = tool.parameters;
  // input_schema is required and must be an object schema; "no parameters" is the empty object schema.
  const schema =
    parameters === undefined
      ? { type: 'object', properties: {} }
      : parameters.type === undefined
        ? { type: 'object', ...parameters }
        : parameters;
  const out: AnthropicTool = { name: tool.name, input_schema: schema };
  if (tool.description !== undefined && tool.description !== '') out.description = tool.description;
  return withCache(out, tool.cache);
}

/** A server tool Anthropic runs (tool-policy.ts decided which): its dated type and its settings, `name` among them. */
function serverTool(tool: Tool & { type: 'hosted' }): AnthropicServerTool {
  return withCache<AnthropicServerTool>(
    { type: tool.name, name: String(tool.config.name ?? tool.name), ...tool.config },
    tool.cache,
  );
}

function choiceOf(choice: GenerationRequest['toolChoice']): AnthropicToolChoice | undefined {
  switch (choice?.type) {
    case 'auto':
      return { type: 'auto' };
    case 'none':
      return { type: 'none' };
    case 'required':
      return { type: 'any' };
    case 'tool':
      return { type: 'tool', name: choice.name };
    default:
      return undefined;
  }
}

export function convertTools(
  request: Pick<GenerationRequest, 'tools' | 'toolChoice' | 'parallelToolCalls'>,
): ConvertedTools {
  // Anthropic's tool_choice has no meaning without tools, so both are sent together or not at all.
  if (request.tools.length === 0) return { forcesToolUse: false };
  const out: ConvertedTools = {
    tools: request.tools.map((tool) =>
      tool.type === 'hosted' ? serverTool(tool) : convertTool(tool as Tool & { type: 'function' }),
    ),
    forcesToolUse: false,
  };
  let choice = choiceOf(request.toolChoice);
  // parallel_tool_calls=false is a flag on the choice; `auto` is Anthropic's default choice to carry it.
  if (request.parallelToolCalls === false && choice?.type !== 'none') {
    choice = { ...(choice ?? { type: 'auto' }), disable_parallel_tool_use: true } as AnthropicToolChoice;
  }
  if (choice) out.tool_choice = choice;
  out.forcesToolUse = choice?.type === 'any' || choice?.type === 'tool';
  return out;
}
