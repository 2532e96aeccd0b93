// NormalizedUsage → the token counts block-format doors report. The gateway's promptTokens INCLUDES cache reads
// and cache writes; Anthropic Messages reports `input_tokens` WITHOUT them (beside `cache_read_input_tokens` and
// `cache_creation_input_tokens`), OpenAI Responses reports `input_tokens` with them and `cached_tokens` inside.
// One place does the subtraction, so no door bills or shows a cached token twice.
import type { NormalizedUsage } from '../../core/generation.js';

export interface UsageBreakdown {
  /** Prompt tokens neither read from nor written to a cache (Anthropic's `input_tokens`). */
  uncachedInputTokens: number;
  /** Prompt tokens read from the cache. */
  cacheReadTokens: number;
  /** Prompt tokens written to the cache. */
  cacheWriteTokens: number;
  /** Of cacheWriteTokens, those written with a 1-hour lifetime. */
  cacheWrite1hTokens: number;
  /** Every prompt token (OpenAI Responses' `input_tokens`). */
  inputTokens: number;
  /** Every generated token, reasoning included. */
  outputTokens: number;
  /** Reasoning tokens, already inside outputTokens. */
  reasoningTokens: number;
  totalTokens: number;
}

export function usageBreakdown(usage: NormalizedUsage): UsageBreakdown {
  const cacheReadTokens = Math.max(0, usage.cachedTokens);
  const cacheWriteTokens = Math.max(0, usage.cacheWriteTokens);
  return {
    uncachedInputTokens: Math.max(0, usage.promptTokens - cacheReadTokens - cacheWriteTokens),
    cacheReadTokens,
    cacheWriteTokens,
    cacheWrite1hTokens: Math.min(cacheWriteTokens, Math.max(0, usage.cacheWrite1hTokens ?? 0)),
    inputTokens: usage.promptTokens,
    outputTokens: usage.completionTokens,
    reasoningTokens: usage.reasoningTokens,
    totalTokens: usage.promptTokens + usage.completionTokens,
  };
}
