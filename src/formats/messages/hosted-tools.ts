// The Messages door's hosted tools, read from the request's own `tools` for admission (formats/shared/hosted-tools.ts):
// Anthropic's web search server tool, and code execution with the tools that run in its container.
import type { ToolFeeFacts } from '../shared/hosted-tools.js';
import { cap, DEFAULT_RESERVED_WEB_SEARCHES, isWebSearchType, records } from '../shared/hosted-tools.js';

/** Each web search server tool runs at most its `max_uses` searches. */
export function messagesWebSearches(tools: unknown): number {
  return records(tools).reduce(
    (sum, tool) => sum + (isWebSearchType(tool.type) ? (cap(tool.max_uses) ?? DEFAULT_RESERVED_WEB_SEARCHES) : 0),
    0,
  );
}

/** A dated Anthropic tool type (`code_execution_20250825`): its name and date, or undefined. */
function datedTool(type: unknown): { name: string; date: number } | undefined {
  const match = typeof type === 'string' ? /^([a-z_]+)_(\d{8})$/.exec(type) : null;
  return match ? { name: match[1], date: Number(match[2]) } : undefined;
}

/** Web search and web fetch from this version on run code execution themselves, and make it free beyond tokens. */
const FREE_CODE_EXECUTION_SINCE = 20260209;

/**
 * Code execution (and the tools that run in its container) uses one container per answer, billed Anthropic's
 * 5-minute minimum; free when the request offers web search or web fetch of version 20260209 or later.
 */
export function messagesToolFees(tools: unknown): ToolFeeFacts {
  const dated = records(tools)
    .map((tool) => datedTool(tool.type))
    .filter((tool) => tool !== undefined);
  const free = dated.some(
    (tool) => (tool.name === 'web_search' || tool.name === 'web_fetch') && tool.date >= FREE_CODE_EXECUTION_SINCE,
  );
  if (free) return { reserve: {}, billing: { codeExecutionFree: true } };
  return { reserve: dated.some((tool) => tool.name === 'code_execution') ? { code_execution: 1 } : {}, billing: {} };
}
