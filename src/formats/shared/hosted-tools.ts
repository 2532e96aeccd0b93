// Reading the hosted tools a request offers, for what admission reserves for their fees: each door reads its own tools
// (formats/<door>/hosted-tools.ts) into the request's facts. A vendor bills every search its hosted search tool runs,
// and every use of its other hosted tools (core/tool-uses.ts), on top of the tokens, and the model decides how many it
// runs: the reservation (credits, a key's USD limit, pass quota) counts the request's own cap where it sets one
// (Anthropic's `max_uses`, the Responses API's `max_tool_calls`), else a bounded default. A request that used more is
// charged them all; what its balance cannot pay becomes debt (docs/metering.md). The request is the client's, so every
// member is checked before it is read.
import type { RequestFacts } from '../../core/request-facts.js';
import { hasToolUses, type ToolBilling, type ToolUses } from '../../core/tool-uses.js';

/** Searches reserved for a request that offers a web search without capping it: the usual agent turn runs 1 to 7. */
export const DEFAULT_RESERVED_WEB_SEARCHES = 10;

export type OfferedTool = Readonly<Record<string, unknown>>;

/** The objects of a list (a request's `tools` or `input`); anything else in it, or a list that is not one, is none. */
export function records(list: unknown): OfferedTool[] {
  return Array.isArray(list)
    ? list.filter((item): item is OfferedTool => typeof item === 'object' && item !== null && !Array.isArray(item))
    : [];
}

/** A client's cap on uses (`max_uses`, `max_tool_calls`), when it is a non-negative integer. */
export function cap(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * A hosted web search tool's type as the Messages and Responses APIs name it: Anthropic's dated `web_search_20250305`,
 * OpenAI's `web_search`, `web_search_preview` and their dated variants. Anthropic's `web_fetch_*` is free beyond its
 * tokens, so it is not one.
 */
export function isWebSearchType(type: unknown): boolean {
  return typeof type === 'string' && /^web_search(_preview)?(_\d{4}_?\d{2}_?\d{2})?$/.test(type);
}

/** The hosted tools other than web search a request offers. */
export interface ToolFeeFacts {
  /** Uses to reserve for, per tool. */
  reserve: ToolUses;
  /** What the answer's reader must know of the request to bill them as the vendor does. */
  billing: ToolBilling;
}

/** Sets the facts' tool reservation and billing, when the request offers any such tool. */
export function withToolFees(facts: RequestFacts, tools: ToolFeeFacts): RequestFacts {
  if (hasToolUses(tools.reserve)) facts.maxToolUses = tools.reserve;
  if (Object.keys(tools.billing).length > 0) facts.toolBilling = tools.billing;
  return facts;
}
