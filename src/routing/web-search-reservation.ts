// How many web search requests admission reserves for, read from the request's own tools at each door. A vendor
// bills every search its hosted search tool runs (catalog `web_search`), on top of the tokens, and the model decides
// how many it runs: the reservation (credits, a key's USD limit, pass quota) counts the request's own cap where it
// sets one (Anthropic's `max_uses`, the Responses API's `max_tool_calls`), else a bounded default. A request that ran
// more searches than it reserved is charged them all; what its balance cannot pay becomes debt (docs/metering.md).
import { cap, offersGeminiTool, records, responsesTools } from './offered-tools.js';

/** Searches reserved for a request that offers a web search without capping it: the usual agent turn runs 1 to 7. */
export const DEFAULT_RESERVED_WEB_SEARCHES = 10;

/**
 * A hosted web search tool's type as the Messages and Responses APIs name it: Anthropic's dated `web_search_20250305`,
 * OpenAI's `web_search`, `web_search_preview` and their dated variants. Anthropic's `web_fetch_*` is free beyond its
 * tokens, so it is not one.
 */
export function isWebSearchType(type: unknown): boolean {
  return typeof type === 'string' && /^web_search(_preview)?(_\d{4}_?\d{2}_?\d{2})?$/.test(type);
}

/** Messages: each web search server tool runs at most its `max_uses` searches. */
export function messagesWebSearches(tools: unknown): number {
  return records(tools).reduce(
    (sum, tool) => sum + (isWebSearchType(tool.type) ? (cap(tool.max_uses) ?? DEFAULT_RESERVED_WEB_SEARCHES) : 0),
    0,
  );
}

/** Responses: a `web_search` tool (in `tools` or a Codex `additional_tools` item), bounded by `max_tool_calls`. */
export function responsesWebSearches(tools: unknown, input: unknown, maxToolCalls: unknown): number {
  const offered = responsesTools(tools, input).some((tool) => isWebSearchType(tool.type));
  return offered ? (cap(maxToolCalls) ?? DEFAULT_RESERVED_WEB_SEARCHES) : 0;
}

/** Gemini: a Google Search tool (`googleSearch`, or the snake_case and 1.5-era names Google also accepts). */
export function geminiWebSearches(tools: unknown): number {
  return offersGeminiTool(tools, ['googleSearch', 'google_search', 'googleSearchRetrieval', 'google_search_retrieval'])
    ? DEFAULT_RESERVED_WEB_SEARCHES
    : 0;
}

/** Chat completions: `web_search_options` asks for a web search (served by a vendor that runs one). */
export function chatWebSearches(webSearchOptions: unknown): number {
  return typeof webSearchOptions === 'object' && webSearchOptions !== null ? DEFAULT_RESERVED_WEB_SEARCHES : 0;
}
