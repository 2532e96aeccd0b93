// The hosted tools other than web search a request offers, read from its own tools at each door that passes them to
// their vendor (core/tool-uses.ts): how many billed uses admission reserves for, and what the answer's reader must know
// of the request to bill them as the vendor does. Like web searches (web-search-reservation.ts), the model decides how
// many it uses: the reservation counts the request's own cap where it sets one, else a bounded default; a request that
// used more is charged them all, and what its balance cannot pay becomes debt (docs/metering.md).
import { hasToolUses, type ToolBilling, type ToolUses } from '../core/tool-uses.js';
import type { RequestFacts } from '../core/request-facts.js';
import { cap, offersGeminiTool, records, responsesTools, type OfferedTool as Tool } from './offered-tools.js';

/** File search calls reserved for a request that offers the tool without `max_tool_calls`. */
export const DEFAULT_RESERVED_FILE_SEARCHES = 10;

export interface ToolFeeFacts {
  /** Uses to reserve for, per tool. */
  reserve: ToolUses;
  billing: ToolBilling;
}

/** GB of a code interpreter container (`memory_limit`: "1g", "4g", "16g", "64g"); OpenAI's default is 1 GB. */
function containerGb(container: Tool): number {
  const match = typeof container.memory_limit === 'string' ? /^(\d+)g$/i.exec(container.memory_limit.trim()) : null;
  const gb = match ? Number(match[1]) : 1;
  return Number.isSafeInteger(gb) && gb >= 1 ? gb : 1;
}

/**
 * Responses: `file_search` runs at most `max_tool_calls` calls; `code_interpreter` runs in one container per answer,
 * created by this request unless the tool names one (`container: "cntr_…"`, created before, with the Containers API or
 * by an earlier request) or an earlier turn's `code_interpreter_call` in the input ran in it (auto mode reuses it).
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

/** A dated Anthropic tool type (`code_execution_20250825`): its name and date, or undefined. */
function datedTool(type: unknown): { name: string; date: number } | undefined {
  const match = typeof type === 'string' ? /^([a-z_]+)_(\d{8})$/.exec(type) : null;
  return match ? { name: match[1], date: Number(match[2]) } : undefined;
}

/** Web search and web fetch from this version on run code execution themselves, and make it free beyond tokens. */
const FREE_CODE_EXECUTION_SINCE = 20260209;

/**
 * Messages: code execution (and the tools that run in its container) uses one container per answer, billed
 * Anthropic's 5-minute minimum; free when the request offers web search or web fetch of version 20260209 or later.
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

/** Gemini: grounding with Google Maps (`googleMaps`, or `google_maps`) is billed once per grounded prompt. */
export function geminiToolFees(tools: unknown): ToolFeeFacts {
  const maps = offersGeminiTool(tools, ['googleMaps', 'google_maps']);
  return { reserve: maps ? { maps_grounding: 1 } : {}, billing: {} };
}

/** Sets the facts' tool reservation and billing, when the request offers any such tool. */
export function withToolFees(facts: RequestFacts, tools: ToolFeeFacts): RequestFacts {
  if (hasToolUses(tools.reserve)) facts.maxToolUses = tools.reserve;
  if (Object.keys(tools.billing).length > 0) facts.toolBilling = tools.billing;
  return facts;
}
