// The client's tools, made something a vendor without them understands, before an adapter converts the
// request: every tool becomes a function tool under a name the vendor accepts, or a hosted tool the vendor runs
// itself, or is left out (and named in a warning: a client's defaults send hosted tools, which must never cost it a
// 400). The conversation's earlier calls are renamed the same way, so they replay as the vendor's own calls.
// - function tool, namespaced or not: a function under its vendor name (vendor-tool-names.ts);
// - custom (freeform) tool: a function of one string parameter, `input`, described with the tool's grammar; its
//   calls replay with `{"input": "<raw text>"}` as arguments;
// - hosted `tool_search` run by the client: a function with the tool's own description and parameters;
// - any other hosted tool: the vendor's own (the policy maps it), or dropped with a warning.
import type { AssistantBlock, ToolCallBlock } from '../../core/content-blocks.js';
import type {
  CustomTool,
  FunctionTool,
  GenerationRequest,
  HostedTool,
  Tool,
  ToolChoice,
} from '../../core/generation-request.js';
import { ToolNameTable, type ToolNameRule } from './vendor-tool-names.js';

/** What a vendor takes: its name rule, and what becomes of each hosted tool. */
export interface ToolPolicy {
  names: ToolNameRule;
  /**
   * The vendor's own tool for a hosted one (kept as hosted, possibly renamed), or why it is dropped. `tools`: every
   * tool of the request (some vendors cannot combine their own tools with functions).
   */
  hosted(tool: HostedTool, tools: readonly Tool[]): { serve: HostedTool } | { drop: string };
}

export interface LoweredTools {
  /** The request with only function tools and hosted tools the vendor serves; the same object when nothing changed. */
  request: GenerationRequest;
  table: ToolNameTable;
  /** One sentence per tool left out (`tool web_search dropped: ...`), for `x-modelgate-warning`. */
  warnings: string[];
}

/** The name of the single string parameter a custom tool is offered with. */
export const CUSTOM_INPUT = 'input';

function customDescription(tool: CustomTool): string {
  const lines = tool.description ? [tool.description, ''] : [];
  const format = tool.format;
  if (format?.type === 'grammar') {
    lines.push(
      `Put the tool's whole input, as plain text, in the \`${CUSTOM_INPUT}\` string. It must follow this ${format.syntax} grammar:`,
      '```',
      format.definition,
      '```',
    );
  } else {
    lines.push(
      `Put the tool's whole input, as free text, in the \`${CUSTOM_INPUT}\` string (not JSON-encoded inside it).`,
    );
  }
  return lines.join('\n');
}

function customParameters(): Record<string, unknown> {
  return {
    type: 'object',
    properties: { [CUSTOM_INPUT]: { type: 'string', description: 'The raw input of the tool.' } },
    required: [CUSTOM_INPUT],
    additionalProperties: false,
  };
}

/** A hosted `tool_search` the client runs itself is called like a function. */
export function isClientToolSearch(tool: Tool): boolean {
  return tool.type === 'hosted' && tool.name === 'tool_search' && tool.config.execution === 'client';
}

/** One request's tools being lowered: all of them, the names declared so far, the vendor's policy, the warnings. */
interface Lowering {
  all: readonly Tool[];
  table: ToolNameTable;
  policy: ToolPolicy;
  warnings: string[];
}

function lowerTool(tool: Tool, { all, table, policy, warnings }: Lowering): Tool[] {
  if (tool.type === 'function') {
    const { namespace, ...rest } = tool;
    return [{ ...rest, name: table.declare({ name: tool.name, namespace, kind: 'function' }) }];
  }
  if (tool.type === 'custom') {
    const out: FunctionTool = {
      type: 'function',
      name: table.declare({ name: tool.name, namespace: tool.namespace, kind: 'custom' }),
      description: customDescription(tool),
      parameters: customParameters(),
    };
    if (tool.cache) out.cache = tool.cache;
    return [out];
  }
  if (isClientToolSearch(tool)) {
    const config = (tool as HostedTool).config;
    const out: FunctionTool = { type: 'function', name: table.declare({ name: tool.name, kind: 'tool_search' }) };
    if (typeof config.description === 'string') out.description = config.description;
    const parameters = config.parameters;
    if (parameters !== null && typeof parameters === 'object') out.parameters = parameters as Record<string, unknown>;
    if (tool.cache) out.cache = tool.cache;
    return [out];
  }
  const decision = policy.hosted(tool, all);
  if ('serve' in decision) return [decision.serve];
  warnings.push(`tool ${tool.name} dropped: ${decision.drop}`);
  return [];
}

function lowerCall(call: ToolCallBlock, table: ToolNameTable): ToolCallBlock {
  const { namespace: _namespace, ...rest } = call;
  const input = call.kind === 'custom' ? JSON.stringify({ [CUSTOM_INPUT]: call.input }) : call.input;
  return { ...rest, name: table.forward(call.name, call.namespace), kind: 'function', input };
}

function lowerChoice(choice: ToolChoice | undefined, table: ToolNameTable): ToolChoice | undefined {
  return choice?.type === 'tool' ? { type: 'tool', name: table.forward(choice.name, choice.namespace) } : choice;
}

function needsLowering(request: GenerationRequest): boolean {
  if (request.tools.some((tool) => tool.type !== 'function' || tool.namespace !== undefined)) return true;
  if (request.toolChoice?.type === 'tool' && request.toolChoice.namespace !== undefined) return true;
  return request.messages.some(
    (turn) =>
      turn.role === 'assistant' &&
      turn.content.some(
        (block) => block.type === 'tool_call' && (block.kind !== 'function' || block.namespace !== undefined),
      ),
  );
}

/** The sentences naming the tools the vendor is not sent (`x-modelgate-warning`). */
export function toolWarnings(tools: readonly Tool[], policy: ToolPolicy): string[] {
  return lowerToolList(tools, policy).warnings;
}

/** The declared tools' names for the vendor, in declaration order (the table a reply's calls are restored with). */
export function toolNameTable(tools: readonly Tool[], policy: ToolPolicy): ToolNameTable {
  return lowerToolList(tools, policy).table;
}

function lowerToolList(
  tools: readonly Tool[],
  policy: ToolPolicy,
): { tools: Tool[]; table: ToolNameTable; warnings: string[] } {
  const lowering: Lowering = { all: tools, table: new ToolNameTable(policy.names), policy, warnings: [] };
  const lowered = tools.flatMap((tool) => lowerTool(tool, lowering));
  return { tools: lowered, table: lowering.table, warnings: lowering.warnings };
}

export function lowerTools(request: GenerationRequest, policy: ToolPolicy): LoweredTools {
  const { tools, table, warnings } = lowerToolList(request.tools, policy);
  if (!needsLowering(request)) return { request, table, warnings };
  const messages = request.messages.map((turn) => {
    if (turn.role !== 'assistant') return turn;
    const content = turn.content.map(
      (block): AssistantBlock => (block.type === 'tool_call' ? lowerCall(block, table) : block),
    );
    return { ...turn, content };
  });
  const lowered: GenerationRequest = { ...request, tools, messages };
  const choice = lowerChoice(request.toolChoice, table);
  if (choice) lowered.toolChoice = choice;
  return { request: lowered, table, warnings };
}
