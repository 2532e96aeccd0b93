// The tools of a Messages request on the native lane (native/tool-gate.ts). Sent: custom tools (no `type`, or
// `custom`), Anthropic's client-run tools (bash, text editor, computer use and the computer and browser toolsets,
// memory), its server tools that cost tokens only (web fetch, tool search, the MCP connector's toolsets) and those
// whose fees the gateway meters (web search: usage.server_tool_use; code execution: code-execution.ts), each under any
// dated version (`web_search_20260318`). Left out, with a warning: the advisor tool (a sub-inference on another model,
// billed at that model's prices) and any type the gateway does not know.
// `fallbacks` (server-side retries on substitute models, billed at theirs) is left out likewise: the gateway's own
// `models` routing bills each model at its price.
import { gateTools, unknownToolReason, type ToolRecord } from '../native/tool-gate.js';

/** A tool type's family: `web_search_20260318` → `web_search`; undated names as they are. */
function family(type: string): string {
  return type.replace(/_\d{8}$/, '');
}

const SENT = new Set([
  'custom',
  'bash',
  'text_editor',
  'computer',
  'computer_toolset',
  'browser_toolset',
  'memory',
  'web_fetch',
  'tool_search_tool_bm25',
  'tool_search_tool_regex',
  'mcp_toolset',
  'web_search',
  'code_execution',
]);

const ADVISOR_REASON =
  'the advisor runs another model, which Anthropic bills at its own prices and the gateway does not meter';

export function judgeMessagesTool(tool: ToolRecord): string | undefined {
  const type = tool.type;
  if (type === undefined || type === null) return undefined; // a custom tool
  if (typeof type !== 'string') return undefined; // Anthropic answers for a malformed tool
  const name = family(type);
  if (SENT.has(name)) return undefined;
  if (name === 'advisor') return ADVISOR_REASON;
  return unknownToolReason('Anthropic');
}

export const FALLBACKS_WARNING =
  'fallbacks left out: a fallback model is billed at its own price, which the gateway does not meter; name fallback models in `models`';

export interface MessagesToolEdits {
  remove: string[];
  set: Record<string, string>;
  warnings: string[];
}

/** What the native lane changes of a Messages request's tools and fallbacks; nothing when all is sent. */
export function messagesToolEdits(body: Readonly<Record<string, unknown>>): MessagesToolEdits {
  const edits: MessagesToolEdits = { remove: [], set: {}, warnings: [] };
  if (Array.isArray(body.tools)) {
    const gated = gateTools(body.tools, judgeMessagesTool);
    if (gated.tools !== body.tools) edits.set.tools = JSON.stringify(gated.tools);
    edits.warnings.push(...gated.warnings);
  }
  if (body.fallbacks !== undefined && body.fallbacks !== null) {
    edits.remove.push('fallbacks');
    edits.warnings.push(FALLBACKS_WARNING);
  }
  return edits;
}
