// Anthropic usage → NormalizedUsage. Anthropic's input_tokens counts only the uncached part of the
// prompt; cache reads and cache writes are reported beside it, so the gateway's promptTokens is the sum.
// Thinking tokens are billed inside output_tokens and not reported separately, so reasoningTokens is 0.
// `cache_creation` splits the cache writes by lifetime (ephemeral_5m_input_tokens, ephemeral_1h_input_tokens):
// a 1-hour write costs 2× input, a 5-minute one 1.25×, so the split is carried to pricing.
// `server_tool_use.web_search_requests` counts the searches of the web search server tool, billed per search on top
// of the tokens; `web_fetch_requests` is not carried: Anthropic charges web fetch nothing beyond its tokens.
// `service_tier`, `speed` and `inference_geo` say what Anthropic served: fast mode and US-only inference multiply the
// token prices (core/served-options.ts); in a stream only message_start's usage carries them.
import type { NormalizedUsage } from '../../core/generation.js';
import { servedOptionsOf, type ServedOptions } from '../../core/served-options.js';
import { readCount, readRecord } from '../payload-readers.js';

export interface UsageCounts {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheCreation?: number;
  /** Of cacheCreation, the tokens written with a 1-hour TTL (`cache_creation.ephemeral_1h_input_tokens`). */
  cacheCreation1h?: number;
  /** `server_tool_use.web_search_requests`: searches the web search server tool ran (cumulative in a stream). */
  webSearchRequests?: number;
  /** The non-standard `service_tier`, `speed` and `inference_geo` Anthropic served. */
  served?: ServedOptions;
}

/** The counts present in one usage object (message, message_start or message_delta). */
export function readUsage(raw: unknown): UsageCounts {
  const usage = readRecord(raw);
  if (!usage) return {};
  const counts: UsageCounts = {};
  const input = readCount(usage.input_tokens);
  const output = readCount(usage.output_tokens);
  const cacheRead = readCount(usage.cache_read_input_tokens);
  const cacheCreation = readCount(usage.cache_creation_input_tokens);
  if (input !== undefined) counts.input = input;
  if (output !== undefined) counts.output = output;
  if (cacheRead !== undefined) counts.cacheRead = cacheRead;
  if (cacheCreation !== undefined) counts.cacheCreation = cacheCreation;
  const split = readRecord(usage.cache_creation);
  if (split) {
    const fiveMinutes = readCount(split.ephemeral_5m_input_tokens);
    const oneHour = readCount(split.ephemeral_1h_input_tokens);
    if (oneHour !== undefined) counts.cacheCreation1h = oneHour;
    // A breakdown without the total (not seen from Anthropic, but its sum is the total by definition).
    if (cacheCreation === undefined && (fiveMinutes !== undefined || oneHour !== undefined)) {
      counts.cacheCreation = (fiveMinutes ?? 0) + (oneHour ?? 0);
    }
  }
  const searches = readCount(readRecord(usage.server_tool_use)?.web_search_requests);
  if (searches !== undefined) counts.webSearchRequests = searches;
  const served = servedOptionsOf(usage);
  if (served) counts.served = served;
  return counts;
}

/** Stream usage is cumulative: a later report replaces each count it carries and keeps the others. */
export function mergeUsage(base: UsageCounts, update: UsageCounts): UsageCounts {
  return { ...base, ...update };
}

export function normalizeUsage(counts: UsageCounts): NormalizedUsage | undefined {
  if (counts.input === undefined && counts.output === undefined) return undefined;
  const cachedTokens = counts.cacheRead ?? 0;
  const cacheWriteTokens = counts.cacheCreation ?? 0;
  const usage: NormalizedUsage = {
    promptTokens: (counts.input ?? 0) + cachedTokens + cacheWriteTokens,
    completionTokens: counts.output ?? 0,
    cachedTokens,
    cacheWriteTokens,
    reasoningTokens: 0,
  };
  const oneHour = Math.min(counts.cacheCreation1h ?? 0, cacheWriteTokens);
  if (oneHour > 0) usage.cacheWrite1hTokens = oneHour;
  if (counts.webSearchRequests) usage.webSearchRequests = counts.webSearchRequests;
  if (counts.served) usage.served = counts.served;
  return usage;
}
