// The Gemini door's hosted tools, read from the request's own `tools` for admission (formats/shared/hosted-tools.ts):
// grounding with Google Search and with Google Maps.
import type { ToolFeeFacts } from '../shared/hosted-tools.js';
import { DEFAULT_RESERVED_WEB_SEARCHES, records } from '../shared/hosted-tools.js';

/** Whether the request's tools offer one of these (Google accepts camelCase and snake_case names). */
function offersTool(tools: unknown, names: readonly string[]): boolean {
  return records(tools).some((tool) => names.some((name) => tool[name] !== undefined && tool[name] !== null));
}

/** A Google Search tool (`googleSearch`, or the snake_case and 1.5-era names Google also accepts). */
export function geminiWebSearches(tools: unknown): number {
  return offersTool(tools, ['googleSearch', 'google_search', 'googleSearchRetrieval', 'google_search_retrieval'])
    ? DEFAULT_RESERVED_WEB_SEARCHES
    : 0;
}

/** Grounding with Google Maps (`googleMaps`, or `google_maps`) is billed once per grounded prompt. */
export function geminiToolFees(tools: unknown): ToolFeeFacts {
  const maps = offersTool(tools, ['googleMaps', 'google_maps']);
  return { reserve: maps ? { maps_grounding: 1 } : {}, billing: {} };
}
