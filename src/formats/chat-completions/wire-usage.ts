// Normalized usage + cost → the spec's Usage object. Cost is USD at the API edge, nano-dollars inside.
import type { AccessMode } from '../../core/access-mode.js';
import { nanosToUsd } from '../../core/money.js';
import type { NormalizedUsage } from '../../core/generation.js';
import type { Usage } from './wire-types.js';

export function toWireUsage(usage: NormalizedUsage, costNanos: bigint, accessMode: AccessMode): Usage {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens, cache_write_tokens: usage.cacheWriteTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    cost: nanosToUsd(costNanos),
    // Pass (subscription) requests report their reference value, which is measured against quotas, never charged.
    cost_details: { access_mode: accessMode, charged: accessMode === 'credits' && costNanos > 0n },
  };
}
