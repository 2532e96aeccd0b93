// OpenAI Responses usage → NormalizedUsage. input_tokens counts the whole prompt, cached reads included
// (input_tokens_details.cached_tokens); output_tokens counts the reasoning tokens too
// (output_tokens_details.reasoning_tokens). Cache writes come as input_tokens_details.cache_write_tokens (the openai
// SDK's ResponseUsage); they are recorded, and billed at the catalog's `cached_write` price, which for OpenAI's models
// is their input price (read-pricing.ts: an omitted cache-write price is the input price), so they cost what they did
// when the field was not read. The hosted web_search tool is billed per call, and the usage object does not count the
// calls: the Response's `output` holds one `web_search_call` item per call (in a stream, each also comes in
// response.output_item.done).
import type { NormalizedUsage } from '../../core/generation.js';
import { isRecord, readArray, readCount, readRecord, readString } from '../payload-readers.js';

/**
 * Web search calls in a Response's `output`, together with those a stream showed before (`seen`, by item id): each
 * call once, whether it came in the output, in the stream, or both.
 */
export function webSearchCalls(output: unknown, seen: ReadonlySet<string> = new Set()): number {
  const ids = new Set(seen);
  let unnamed = 0;
  for (const item of readArray(output) ?? []) {
    if (!isRecord(item) || item.type !== 'web_search_call') continue;
    const id = readString(item.id);
    if (id) ids.add(id);
    else unnamed += 1;
  }
  return ids.size + unnamed;
}

export function responsesUsage(raw: unknown): NormalizedUsage | undefined {
  const usage = readRecord(raw);
  if (!usage) return undefined;
  const input = readCount(usage.input_tokens);
  const output = readCount(usage.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const promptTokens = input ?? 0;
  const completionTokens = output ?? 0;
  const inputDetails = readRecord(usage.input_tokens_details);
  const cached = Math.min(readCount(inputDetails?.cached_tokens) ?? 0, promptTokens);
  const cacheWrite = Math.min(readCount(inputDetails?.cache_write_tokens) ?? 0, promptTokens - cached);
  const reasoning = readCount(readRecord(usage.output_tokens_details)?.reasoning_tokens) ?? 0;
  return {
    promptTokens,
    completionTokens,
    cachedTokens: cached,
    cacheWriteTokens: cacheWrite,
    reasoningTokens: Math.min(reasoning, completionTokens),
  };
}
