// Responses tool definitions → internal tools, wherever the client gives them: the request's `tools`, an
// `additional_tools` input item (Codex declares its namespaces there), the tools a client-run `tool_search` loaded
// (`tool_search_output`). Function tools are function tools; a `namespace` tool's members (function or custom) are
// tools of that namespace; `custom` tools are custom tools; every other type is a hosted tool with its settings.
import { GatewayError } from '../../core/gateway-error.js';
import type { CustomTool, FunctionTool, Tool } from '../../core/generation-request.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type GrammarFormat = { type: 'grammar'; syntax: string; definition: string };

function checkName(name: unknown, field: string): string {
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new GatewayError(400, `Invalid request: ${field} must be 1 to 64 letters, digits, underscores or dashes`, {
      field,
    });
  }
  return name;
}

function functionTool(tool: Record<string, unknown>, field: string, namespace?: string): FunctionTool {
  const out: FunctionTool = { type: 'function', name: checkName(tool.name, `${field}.name`) };
  if (namespace !== undefined) out.namespace = namespace;
  if (typeof tool.description === 'string') out.description = tool.description;
  if (tool.parameters && typeof tool.parameters === 'object')
    out.parameters = tool.parameters as Record<string, unknown>;
  if (typeof tool.strict === 'boolean') out.strict = tool.strict;
  return out;
}

function customTool(tool: Record<string, unknown>, field: string, namespace?: string): CustomTool {
  const out: CustomTool = { type: 'custom', name: checkName(tool.name, `${field}.name`) };
  if (namespace !== undefined) out.namespace = namespace;
  if (typeof tool.description === 'string') out.description = tool.description;
  const format = tool.format as { type?: unknown } | undefined;
  if (format?.type === 'text') out.format = { type: 'text' };
  else if (format?.type === 'grammar') {
    const grammar = format as GrammarFormat;
    out.format = { type: 'grammar', syntax: String(grammar.syntax), definition: String(grammar.definition) };
  }
  return out;
}

function namespaceMembers(tool: Record<string, unknown>, field: string): Tool[] {
  const namespace = checkName(tool.name, `${field}.name`);
  const members = Array.isArray(tool.tools) ? (tool.tools as Record<string, unknown>[]) : [];
  return members.map((member, i) => {
    const at = `${field}.tools[${i}]`;
    return member?.type === 'custom' ? customTool(member, at, namespace) : functionTool(member, at, namespace);
  });
}

/** One wire tool → the internal tools it declares (a namespace declares its members). `field` names it in errors. */
export function toolsOf(wire: unknown, field: string): Tool[] {
  const tool = (wire ?? {}) as Record<string, unknown>;
  switch (tool.type) {
    case 'function':
      return [functionTool(tool, field)];
    case 'namespace':
      return namespaceMembers(tool, field);
    case 'custom':
      return [customTool(tool, field)];
    default: {
      const { type, ...config } = tool;
      return [{ type: 'hosted', name: String(type), config }];
    }
  }
}

/** A list of wire tools → internal tools, in order. */
export function toolListOf(wire: unknown, field: string): Tool[] {
  return Array.isArray(wire) ? wire.flatMap((tool, i) => toolsOf(tool, `${field}[${i}]`)) : [];
}

/** Adds `more` to `tools`, skipping tools already declared (same type, name and namespace). */
export function addTools(tools: Tool[], more: readonly Tool[]): void {
  const key = (tool: Tool) =>
    `${tool.type}\u0000${tool.type === 'hosted' ? '' : (tool.namespace ?? '')}\u0000${tool.name}`;
  const known = new Set(tools.map(key));
  for (const tool of more) {
    if (known.has(key(tool))) continue;
    known.add(key(tool));
    tools.push(tool);
  }
}
