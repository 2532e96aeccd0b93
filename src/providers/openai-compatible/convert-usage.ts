// Vendor usage objects → NormalizedUsage (prompt includes cache reads and writes; completion includes
// reasoning). Billing depends on this, so each vendor's way of reporting cache and reasoning is handled here.
import type { NormalizedUsage } from '../../core/generation.js';
import { readCount, readRecord } from '../payload-readers.js';

export function normalizeUsage(raw: unknown): NormalizedUsage | undefined {
  const usage = readRecord(raw);
  if (!usage) return undefined;
  const prompt = readCount(usage.prompt_tokens);
  const completion = readCount(usage.completion_tokens);
  if (prompt === undefined && completion === undefined) return undefined;
  const promptTokens = prompt ?? 0;
  let completionTokens = completion ?? 0;

  const promptDetails = readRecord(usage.prompt_tokens_details);
  const completionDetails = readRecord(usage.completion_tokens_details);
  // OpenAI-style details first; DeepSeek reports cache hits at the top level instead.
  const cached = readCount(promptDetails?.cached_tokens) ?? readCount(usage.prompt_cache_hit_tokens) ?? 0;
  const cacheWrite =
    readCount(promptDetails?.cache_write_tokens) ?? readCount(promptDetails?.cache_creation_tokens) ?? 0;
  const reasoningTokens = readCount(completionDetails?.reasoning_tokens) ?? 0;

  // Some vendors (xAI, Gemini's compatibility layer) leave reasoning out of completion_tokens; their
  // total_tokens then adds it separately, which tells the two conventions apart.
  const total = readCount(usage.total_tokens);
  if (
    reasoningTokens > 0 &&
    total !== undefined &&
    total !== promptTokens + completionTokens &&
    total === promptTokens + completionTokens + reasoningTokens
  ) {
    completionTokens += reasoningTokens;
  }

  return {
    promptTokens,
    completionTokens,
    cachedTokens: Math.min(cached, promptTokens),
    cacheWriteTokens: Math.min(cacheWrite, promptTokens),
    reasoningTokens: Math.min(reasoningTokens, completionTokens),
  };
}
