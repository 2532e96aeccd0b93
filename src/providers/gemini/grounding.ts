// Gemini's Google Search grounding (a `googleSearch` tool, tool-policy.ts), as the gateway carries it: the candidate's
// `groundingMetadata` (the queries it ran, `webSearchQueries`; the pages it used, `groundingChunks[].web`) is one
// web search. Gemini reports it with the answer (in a stream, on a late chunk), not before it. Where in the text each
// page supports (`groundingSupports`, in UTF-8 byte offsets) is not carried.
// Google bills grounding on top of the tokens, per the model's generation: Gemini 3 and later per search query it ran
// (`webSearchQueries`), Gemini 2.x per grounded prompt (one, however many queries); billedSearches counts that unit.
// Grounding with Google Maps (a `googleMaps` tool, passed through on the native lane) is billed per grounded prompt:
// a candidate whose grounding holds a place (`groundingChunks[].maps`, or the Maps widget's context token) is one.
import type { WebSearchBlock } from '../../core/content-blocks.js';
import type { NormalizedUsage } from '../../core/generation.js';
import { isRecord, readArray, readRecord, readString } from '../payload-readers.js';
import { geminiModelInfo } from './model-family.js';

function searchQueries(metadata: Record<string, unknown>): string[] {
  return (readArray(metadata.webSearchQueries) ?? []).filter(
    (query): query is string => typeof query === 'string' && query !== '',
  );
}

/** The Google Search requests a candidate's grounding is billed as, for this model (0: not grounded). */
export function billedSearches(candidate: Record<string, unknown> | undefined, upstreamModel: string): number {
  const metadata = readRecord(candidate?.groundingMetadata);
  if (!metadata) return 0;
  const queries = searchQueries(metadata).length;
  const { generation } = geminiModelInfo(upstreamModel);
  if (generation !== undefined && generation < 3) return queries > 0 ? 1 : 0;
  return queries;
}

/** Whether a candidate's answer was grounded with Google Maps (one grounded prompt, billed as `maps_grounding`). */
export function mapsGrounded(candidate: Record<string, unknown> | undefined): boolean {
  const metadata = readRecord(candidate?.groundingMetadata);
  if (!metadata) return false;
  if (readString(metadata.googleMapsWidgetContextToken)) return true;
  return (readArray(metadata.groundingChunks) ?? []).some((chunk) => isRecord(chunk) && isRecord(chunk.maps));
}

/** Usage with the Maps grounded prompt it is billed, if any. */
export function withMapsGrounding(usage: NormalizedUsage, grounded: boolean): NormalizedUsage {
  return grounded ? { ...usage, toolUses: { ...usage.toolUses, maps_grounding: 1 } } : usage;
}

/** Usage with the grounding's search count (a stream reports them on a chunk of its own, maybe after the last usage). */
export function withSearches(usage: NormalizedUsage, searches: number): NormalizedUsage {
  return searches > 0 ? { ...usage, webSearchRequests: searches } : usage;
}

/** The candidate's web search, or undefined when it has no grounding metadata with queries or pages. */
export function groundingSearch(
  candidate: Record<string, unknown>,
  responseId: string | undefined,
): Omit<WebSearchBlock, 'type'> | undefined {
  const metadata = readRecord(candidate.groundingMetadata);
  if (!metadata) return undefined;
  const queries = searchQueries(metadata);
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
