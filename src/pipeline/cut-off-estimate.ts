// What a stream that may hide reasoning is billed when its drain was cut (the bound elapsed, or a graceful stop came)
// before the provider reported usage: the bound admission reserved for it, the prompt estimate plus the output cap
// (max_tokens, else the model's maximum output, within the context window), never below the tokens already seen.
// The provider cannot bill more output than the cap and may have billed that much unseen, so the charge is never
// below the provider's, never zero, and within the reservation. The output beyond what was seen counts as reasoning.
// Web searches likewise: the searches reserved for (the request offered a search tool), never fewer than were seen;
// and the other hosted tools' uses (core/tool-uses.ts), each the most of those reserved for and those seen; and the
// price options (a priority tier, fast mode) the answer showed, else those the attempt asked for.
import { reservationOutputTokens } from '../billing/admission.js';
import type { ExtraSpend } from '../billing/pricing.js';
import type { ServedOptions } from '../core/served-options.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { NormalizedUsage } from '../core/generation.js';
import { billedToolUses, maxToolUses, type ToolUses } from '../core/tool-uses.js';
import { chargedTools } from '../billing/tool-fees.js';
import type { GenerationMeter } from './generation-meter.js';

export function cutOffEstimate(
  entry: CatalogEntry,
  /** The client's output cap, when it set one. */
  maxOutputTokens: number | undefined,
  meter: Pick<GenerationMeter, 'estimatedPromptTokens' | 'generatedTokens'> & {
    readonly webSearchesSeen?: number;
    readonly toolUsesSeenSoFar?: ToolUses;
    readonly servedSeen?: ServedOptions;
  },
  boundMs: number,
  /** What the serving attempt may spend beyond tokens, as admission reserved for it (pipeline/candidate-spend.ts). */
  spend: ExtraSpend = {},
): { usage: NormalizedUsage; why: string } {
  const maxWebSearches = spend.webSearches ?? 0;
  const prompt = meter.estimatedPromptTokens;
  const cap = reservationOutputTokens(entry, maxOutputTokens, prompt);
  const visible = meter.generatedTokens;
  const output = Math.max(cap, visible);
  const searches = Math.max(maxWebSearches, meter.webSearchesSeen ?? 0);
  const usage: NormalizedUsage = {
    promptTokens: prompt,
    completionTokens: output,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: output - visible,
  };
  if (searches > 0) usage.webSearchRequests = searches;
  const tools = billedToolUses(onlyCharged(entry, maxToolUses(spend.toolUses, meter.toolUsesSeenSoFar)));
  if (tools) usage.toolUses = tools;
  const served = meter.servedSeen ?? spend.options;
  if (served) usage.served = served;
  return {
    usage,
    why:
      `The client disconnected and the upstream, which may reason without streaming it, reported no usage within ${boundMs / 1000} s ` +
      `(MODELGATE_DRAIN_ON_ABORT_S) or before the gateway stopped: billed the reserved bound, ${prompt} prompt and ${output} output tokens` +
      (searches > 0 ? ` and ${searches} web searches` : '') +
      (tools ? `, with the hosted tool uses ${JSON.stringify(tools)}.` : '.'),
  };
}

/** The uses of the tools this endpoint charges for: a tool the request offered another vendor's way is not its use. */
function onlyCharged(entry: CatalogEntry, uses: ToolUses | undefined): ToolUses | undefined {
  if (!uses) return undefined;
  const out: ToolUses = {};
  for (const tool of chargedTools([entry.pricing.base, ...entry.pricing.tiers].map((set) => set.toolFees)))
    out[tool] = uses[tool];
  return out;
}
