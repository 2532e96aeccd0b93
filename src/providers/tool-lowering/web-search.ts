// Hosted web search under its names at each door: OpenAI's `web_search` (and `web_search_preview`, dated variants),
// Anthropic's `web_search_20250305`. A vendor that runs a web search of its own (Anthropic, Gemini's Google Search)
// serves any of them; the settings both sides have (allowed domains, the user's approximate location) carry over.
import type { HostedTool } from '../../core/generation-request.js';

/** True for a hosted tool that asks for a web search, whichever door named it. */
export function isWebSearch(tool: HostedTool): boolean {
  return isWebSearchName(tool.name);
}

/** True for a tool type that asks for a web search: OpenAI's and Anthropic's names, dated or not. */
export function isWebSearchName(name: unknown): boolean {
  return (
    typeof name === 'string' &&
    (/^web_search(_preview)?(_\d{4}_?\d{2}_?\d{2})?$/.test(name) || /^web_search_\d{8}$/.test(name))
  );
}

/** A hosted tool as a warning names it: "web search" for any web search, else its type in words ("code interpreter"). */
export function hostedLabel(tool: HostedTool): string {
  return isWebSearch(tool) ? 'web search' : tool.name.replace(/_/g, ' ');
}

/** Anthropic's dated server tool; its `name` must be `web_search`. */
export const ANTHROPIC_WEB_SEARCH = 'web_search_20250305';

/** An OpenAI-style web search's settings → Anthropic's web search tool fields. */
export function anthropicWebSearch(tool: HostedTool): HostedTool {
  if (/^web_search_\d{8}$/.test(tool.name)) return tool; // already Anthropic's own (a Messages client's)
  const config: Record<string, unknown> = { name: 'web_search' };
  const filters = tool.config.filters as { allowed_domains?: unknown } | undefined;
  if (Array.isArray(filters?.allowed_domains) && filters.allowed_domains.length > 0)
    config.allowed_domains = filters.allowed_domains;
  const location = tool.config.user_location as Record<string, unknown> | null | undefined;
  if (location && typeof location === 'object') {
    const user_location: Record<string, unknown> = { type: 'approximate' };
    for (const field of ['city', 'region', 'country', 'timezone'])
      if (typeof location[field] === 'string') user_location[field] = location[field];
    config.user_location = user_location;
  }
  const out: HostedTool = { type: 'hosted', name: ANTHROPIC_WEB_SEARCH, config };
  if (tool.cache) out.cache = tool.cache;
  return out;
}
