// NormalizedUsage → Gemini's usageMetadata, and the internal finish reason → Gemini's. Only the shape is Google's:
// the counts are what the gateway bills. Gemini reports thinking apart from the answer (candidatesTokenCount excludes
// thoughtsTokenCount), the gateway counts reasoning inside completion tokens; the prompt includes cached tokens on
// both.
import type { FinishReason, NormalizedUsage } from '../../core/generation.js';
import type { GeminiUsageMetadata } from './wire-types.js';

export function toGeminiUsage(usage: NormalizedUsage): GeminiUsageMetadata {
  const reasoning = Math.min(usage.reasoningTokens, usage.completionTokens);
  const out: GeminiUsageMetadata = {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: usage.completionTokens - reasoning,
    totalTokenCount: usage.promptTokens + usage.completionTokens,
  };
  if (usage.cachedTokens > 0) out.cachedContentTokenCount = usage.cachedTokens;
  if (reasoning > 0) out.thoughtsTokenCount = reasoning;
  return out;
}

/** Gemini says STOP after function calls too; a content filter is SAFETY. */
export function toGeminiFinishReason(reason: FinishReason): 'STOP' | 'MAX_TOKENS' | 'SAFETY' | 'OTHER' {
  switch (reason) {
    case 'stop':
    case 'tool_calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}
