// What a stream that may hide reasoning is billed when its drain was cut (the bound elapsed, or a graceful stop came)
// before the provider reported usage: the bound admission reserved for it, the prompt estimate plus the output cap
// (max_tokens, else the model's maximum output, within the context window), never below the tokens already seen.
// The provider cannot bill more output than the cap and may have billed that much unseen, so the charge is never
// below the provider's, never zero, and within the reservation. The output beyond what was seen counts as reasoning.
import { reservationOutputTokens } from '../billing/accounting.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { NormalizedUsage } from '../core/generation.js';
import type { GenerationMeter } from './generation-meter.js';

export function cutOffEstimate(
  entry: CatalogEntry,
  /** The client's output cap, when it set one. */
  maxOutputTokens: number | undefined,
  meter: Pick<GenerationMeter, 'estimatedPromptTokens' | 'generatedTokens'>,
  boundMs: number,
): { usage: NormalizedUsage; why: string } {
  const prompt = meter.estimatedPromptTokens;
  const cap = reservationOutputTokens(entry, maxOutputTokens, prompt);
  const visible = meter.generatedTokens;
  const output = Math.max(cap, visible);
  return {
    usage: { promptTokens: prompt, completionTokens: output, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: output - visible },
    why: `The client disconnected and the upstream, which may reason without streaming it, reported no usage within ${boundMs / 1000} s ` +
      `(MODELGATE_DRAIN_ON_ABORT_S) or before the gateway stopped: billed the reserved bound, ${prompt} prompt and ${output} output tokens.`,
  };
}
