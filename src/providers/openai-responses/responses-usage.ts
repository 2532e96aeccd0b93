// OpenAI Responses usage → NormalizedUsage. input_tokens counts the whole prompt, cached reads included
// (input_tokens_details.cached_tokens); output_tokens counts the reasoning tokens too
// (output_tokens_details.reasoning_tokens). OpenAI reports no cache writes: its caching is automatic and unpriced.
// The hosted web_search tool is billed per call, and the usage object does not count the calls: the Response's
// `output` holds one `web_search_call` item per call (in a stream, each also comes in response.output_item.done).
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
  const cached = readCount(readRecord(usage.input_tokens_details)?.cached_tokens) ?? 0;
  const reasoning = readCount(readRecord(usage.output_tokens_details)?.reasoning_tokens) ?? 0;
  return {
    promptTokens,
    completionTokens,
    cachedTokens: Math.min(cached, promptTokens),
    cacheWriteTokens: 0,
    reasoningTokens: Math.min(reasoning, completionTokens),
  };
}
