// The tools of a Responses request on the native lane (native/tool-gate.ts), in `tools` and in Codex's
// `additional_tools` input items. Sent: the tools that cost tokens only (functions, custom and namespaced tools, tool
// search, the client-run local shell, apply_patch and computer use, remote MCP servers, a shell in the client's or an
// existing container) and those whose fees the gateway meters (web search, file search, code interpreter:
// hosted-tool-calls.ts, responses-usage.ts). Left out, with a warning:
// - `image_generation`: OpenAI bills each image by its model, size and quality, and the Response reports neither the
//   image tokens nor (in its documented shape) the size and quality of an `image_generation_call`, so the gateway
//   could not charge what OpenAI does;
// - a hosted shell (`shell` with `environment.type: container_auto`): the container it creates is billed by OpenAI and
//   not metered here;
// - any other type (a tool OpenAI adds, `programmatic_tool_calling`): the gateway does not know how OpenAI bills it.
import { isRecord, readRecord } from '../payload-readers.js';
import { gateTools, unknownToolReason, type ToolRecord } from '../native/tool-gate.js';
import { isWebSearchName } from '../tool-lowering/web-search.js';

const TOKENS_ONLY = new Set([
  'function',
  'custom',
  'namespace',
  'tool_search',
  'local_shell',
  'apply_patch',
  'computer',
  'computer_use_preview',
  'mcp',
]);
const METERED = new Set(['file_search', 'code_interpreter']);

const IMAGE_REASON = 'OpenAI bills each image by its size and quality, which its answer does not report to the gateway';
const HOSTED_SHELL_REASON = 'a hosted shell creates a container OpenAI bills, which the gateway does not meter';

export function judgeResponsesTool(tool: ToolRecord): string | undefined {
  const type = tool.type;
  if (typeof type !== 'string') return undefined; // OpenAI answers for a malformed tool
  if (TOKENS_ONLY.has(type) || METERED.has(type) || isWebSearchName(type)) return undefined;
  if (type === 'shell')
    return readRecord(tool.environment)?.type === 'container_auto' ? HOSTED_SHELL_REASON : undefined;
  if (type === 'image_generation') return IMAGE_REASON;
  return unknownToolReason('OpenAI');
}

export interface ResponsesToolEdits {
  /** Top-level members to replace (JSON text): `tools`, and `input` when an `additional_tools` item lost a tool. */
  set: Record<string, string>;
  warnings: string[];
}

/** What the native lane changes of a Responses request's tools; nothing (and no copy) when every tool is sent. */
export function responsesToolEdits(body: Readonly<Record<string, unknown>>): ResponsesToolEdits {
  const edits: ResponsesToolEdits = { set: {}, warnings: [] };
  if (Array.isArray(body.tools)) {
    const gated = gateTools(body.tools, judgeResponsesTool);
    if (gated.tools !== body.tools) edits.set.tools = JSON.stringify(gated.tools);
    edits.warnings.push(...gated.warnings);
  }
  if (Array.isArray(body.input)) {
    let input: unknown[] | undefined;
    body.input.forEach((item, i) => {
      if (!isRecord(item) || item.type !== 'additional_tools' || !Array.isArray(item.tools)) return;
      const gated = gateTools(item.tools, judgeResponsesTool);
      if (gated.tools === item.tools) return;
      // Rare (a Codex turn offering a tool the gateway cannot bill): only then is the input written again.
      input ??= [...(body.input as unknown[])];
      input[i] = { ...item, tools: gated.tools };
      edits.warnings.push(...gated.warnings);
    });
    if (input) edits.set.input = JSON.stringify(input);
  }
  return edits;
}
