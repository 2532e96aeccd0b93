// Gemini `usageMetadata` → NormalizedUsage. Gemini reports thinking apart from the answer
// (candidatesTokenCount excludes thoughtsTokenCount) while the gateway counts reasoning inside completion
// tokens; promptTokenCount already includes cachedContentTokenCount; tool-use prompt tokens (built-in tools)
// are billed as input, so they join the prompt. Gemini has no cache-write charge per request.
import type { NormalizedUsage } from '../../core/generation.js';
import { readCount, readRecord } from '../payload-readers.js';

export function normalizeGeminiUsage(raw: unknown): NormalizedUsage | undefined {
  const usage = readRecord(raw);
  if (!usage) return undefined;
  const prompt = readCount(usage.promptTokenCount);
  const candidates = readCount(usage.candidatesTokenCount);
  const thoughts = readCount(usage.thoughtsTokenCount);
  if (prompt === undefined && candidates === undefined && thoughts === undefined) return undefined;
  const promptTokens = (prompt ?? 0) + (readCount(usage.toolUsePromptTokenCount) ?? 0);
  const reasoningTokens = thoughts ?? 0;
  return {
    promptTokens,
    completionTokens: (candidates ?? 0) + reasoningTokens,
    cachedTokens: Math.min(readCount(usage.cachedContentTokenCount) ?? 0, promptTokens),
    cacheWriteTokens: 0,
    reasoningTokens,
  };
}
