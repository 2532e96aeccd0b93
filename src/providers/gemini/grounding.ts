// Gemini's Google Search grounding (a `googleSearch` tool, tool-policy.ts), as the gateway carries it: the candidate's
// `groundingMetadata` (the queries it ran, `webSearchQueries`; the pages it used, `groundingChunks[].web`) is one
// web search. Gemini reports it with the answer (in a stream, on a late chunk), not before it. Where in the text each
// page supports (`groundingSupports`, in UTF-8 byte offsets) is not carried.
import type { WebSearchBlock } from '../../core/content-blocks.js';
import { isRecord, readArray, readRecord, readString } from '../payload-readers.js';

/** The candidate's web search, or undefined when it has no grounding metadata with queries or pages. */
export function groundingSearch(candidate: Record<string, unknown>, responseId: string | undefined): Omit<WebSearchBlock, 'type'> | undefined {
  const metadata = readRecord(candidate.groundingMetadata);
  if (!metadata) return undefined;
  const queries = (readArray(metadata.webSearchQueries) ?? []).filter((query): query is string => typeof query === 'string' && query !== '');
  const sources = (readArray(metadata.groundingChunks) ?? []).filter(isRecord).flatMap((chunk) => {
    const web = readRecord(chunk.web);
    const url = readString(web?.uri);
    if (!url) return [];
    const title = readString(web?.title);
    return [title ? { url, title } : { url }];
  });
  if (queries.length === 0 && sources.length === 0) return undefined;
  return { id: `${responseId ?? 'gemini'}_search`, status: 'completed', queries, sources };
}
