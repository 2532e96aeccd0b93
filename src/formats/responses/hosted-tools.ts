// The Responses door's hosted tools, read from the request's own tools for admission (formats/shared/hosted-tools.ts):
// web search, file search and code interpreter, in `tools` or in the `additional_tools` items Codex adds to its input.
import type { ToolBilling, ToolUses } from '../../core/tool-uses.js';
import type { OfferedTool as Tool, ToolFeeFacts } from '../shared/hosted-tools.js';
import { cap, DEFAULT_RESERVED_WEB_SEARCHES, isWebSearchType, records } from '../shared/hosted-tools.js';

/** File search calls reserved for a request that offers the tool without `max_tool_calls`. */
export const DEFAULT_RESERVED_FILE_SEARCHES = 10;

/** A Responses request's tools: its `tools`, and those Codex adds in `additional_tools` items of its input. */
function responsesTools(tools: unknown, input: unknown): Tool[] {
  return [
    ...records(tools),
    ...records(input)
      .filter((item) => item.type === 'additional_tools')
      .flatMap((item) => records(item.tools)),
  ];
}

/** A `web_search` tool (in `tools` or a Codex `additional_tools` item), bounded by `max_tool_calls`. */
export function responsesWebSearches(tools: unknown, input: unknown, maxToolCalls: unknown): number {
  const offered = responsesTools(tools, input).some((tool) => isWebSearchType(tool.type));
  return offered ? (cap(maxToolCalls) ?? DEFAULT_RESERVED_WEB_SEARCHES) : 0;
}

/** GB of a code interpreter container (`memory_limit`: "1g", "4g", "16g", "64g"); OpenAI's default is 1 GB. */
function containerGb(container: Tool): number {
  const match = typeof container.memory_limit === 'string' ? /^(\d+)g$/i.exec(container.memory_limit.trim()) : null;
  const gb = match ? Number(match[1]) : 1;
  return Number.isSafeInteger(gb) && gb >= 1 ? gb : 1;
}

/**
 * `file_search` runs at most `max_tool_calls` calls; `code_interpreter` runs in one container per answer, created by
 * this request unless the tool names one (`container: "cntr_…"`, created before, with the Containers API or by an
 * earlier request) or an earlier turn's `code_interpreter_call` in the input ran in it (auto mode reuses it).
 */
export function responsesToolFees(tools: unknown, input: unknown, maxToolCalls: unknown): ToolFeeFacts {
  const items = records(input);
  const offered = responsesTools(tools, input);
  const reserve: ToolUses = {};
  const billing: ToolBilling = {};
  if (offered.some((tool) => tool.type === 'file_search'))
    reserve.file_search = cap(maxToolCalls) ?? DEFAULT_RESERVED_FILE_SEARCHES;
  const interpreters = offered.filter((tool) => tool.type === 'code_interpreter');
  const known = new Set<string>();
  let gb = 0;
  for (const tool of interpreters) {
    if (typeof tool.container === 'string') known.add(tool.container);
    else
      gb = Math.max(
        gb,
        containerGb(typeof tool.container === 'object' && tool.container !== null ? (tool.container as Tool) : {}),
      );
  }
  for (const item of items) {
    if (item.type === 'code_interpreter_call' && typeof item.container_id === 'string') known.add(item.container_id);
  }
  if (gb > 0) {
    // One new container; none when the model reuses a container of an earlier turn, which the answer then shows.
    if (cap(maxToolCalls) !== 0) reserve.code_interpreter = gb;
    if (gb > 1) billing.containerGb = gb;
  }
  if (known.size > 0) billing.knownContainers = [...known];
  return { reserve, billing };
}
