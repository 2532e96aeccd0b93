// OpenAI Responses usage → NormalizedUsage. input_tokens counts the whole prompt, cached reads included
// (input_tokens_details.cached_tokens); output_tokens counts the reasoning tokens too
// (output_tokens_details.reasoning_tokens). OpenAI reports no cache writes: its caching is automatic and unpriced.
import type { NormalizedUsage } from '../../core/generation.js';
import { readCount, readRecord } from '../payload-readers.js';

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
