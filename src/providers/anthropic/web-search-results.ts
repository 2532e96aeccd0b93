// Anthropic's web search, as the gateway carries it: a `server_tool_use` block (name `web_search`, input
// `{"query": ...}`) and the `web_search_tool_result` block that answers it (its results' urls and titles, or an error)
// make one WebSearchBlock; the encrypted page contents stay with Anthropic (no other vendor could read them back).
import type { WebSearchBlock } from '../../core/content-blocks.js';
import { isRecord, readArray, readRecord, readString, type JsonRecord } from '../payload-readers.js';

/** The query of a web search call's input (JSON text, as it streamed, or the object of a whole message). */
export function searchQuery(input: unknown): string | undefined {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return undefined;
    }
  }
  return readString(readRecord(value)?.query);
}

/** A `web_search_tool_result` block → the search, with the query of the call it answers. */
export function webSearchOf(result: JsonRecord, query: string | undefined): Omit<WebSearchBlock, 'type'> {
  const id = readString(result.tool_use_id) ?? '';
  const queries = query === undefined ? [] : [query];
  const content = readArray(result.content);
  if (!content) return { id, status: 'failed', queries, sources: [] }; // web_search_tool_result_error
  const sources = content.filter(isRecord).flatMap((item) => {
    const url = readString(item.url);
    if (item.type !== 'web_search_result' || !url) return [];
    const title = readString(item.title);
    return [title ? { url, title } : { url }];
  });
  return { id, status: 'completed', queries, sources };
}
