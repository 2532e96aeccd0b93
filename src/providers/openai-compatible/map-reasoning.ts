// Maps the gateway's reasoning request to each vendor's own reasoning control.
import type { ReasoningRequest } from '../../core/generation-request.js';
import type { Effort, VendorProfile } from './vendors.js';

const EFFORT_ORDER: readonly Effort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];

/** Share of the output cap each effort level spends on reasoning (OpenRouter's documented allocation). */
const EFFORT_SHARE: Readonly<Record<Exclude<Effort, 'none'>, number>> = {
  minimal: 0.1,
  low: 0.2,
  medium: 0.5,
  high: 0.8,
  xhigh: 0.95,
};

/** Anthropic's smallest accepted thinking budget. */
const MIN_THINKING_BUDGET = 1024;

type Intent =
  | { kind: 'off' }
  | { kind: 'default' }
  | { kind: 'effort'; effort: Exclude<Effort, 'none'> }
  | { kind: 'budget'; tokens: number };

function intentOf(reasoning: ReasoningRequest): Intent | undefined {
  const effort = reasoning.effort;
  if (reasoning.enabled === false || effort === 'none') return { kind: 'off' };
  if (effort && effort in EFFORT_SHARE) return { kind: 'effort', effort: effort as Exclude<Effort, 'none'> };
  const budget = reasoning.budgetTokens;
  if (typeof budget === 'number') return budget > 0 ? { kind: 'budget', tokens: budget } : { kind: 'off' };
  if (reasoning.enabled === true || reasoning.adaptive === true) return { kind: 'default' };
  return undefined; // e.g. only `exclude`: nothing to ask of the vendor
}

/** OpenRouter's own `reasoning` object: its fields are the gateway's, by their OpenRouter names. */
function openRouterReasoning(reasoning: ReasoningRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (reasoning.effort !== undefined) out.effort = reasoning.effort;
  if (reasoning.budgetTokens !== undefined) out.max_tokens = reasoning.budgetTokens;
  if (reasoning.exclude !== undefined) out.exclude = reasoning.exclude;
  if (reasoning.enabled !== undefined) out.enabled = reasoning.enabled;
  else if (reasoning.adaptive === true) out.enabled = true;
  return out;
}

/** The effort level whose share of the output cap is closest to a token budget. */
export function effortForBudget(tokens: number, outputCap: number | undefined): Exclude<Effort, 'none'> {
  if (!outputCap || outputCap <= 0) {
    // No cap to relate to: absolute thresholds in the range vendors' own effort levels land in.
    if (tokens <= 1024) return 'minimal';
    if (tokens <= 4096) return 'low';
    if (tokens <= 16384) return 'medium';
    if (tokens <= 32768) return 'high';
    return 'xhigh';
  }
  const ratio = tokens / outputCap;
  let best: Exclude<Effort, 'none'> = 'medium';
  let bestDistance = Infinity;
  for (const [effort, share] of Object.entries(EFFORT_SHARE) as Array<[Exclude<Effort, 'none'>, number]>) {
    const distance = Math.abs(share - ratio);
    if (distance < bestDistance) {
      best = effort;
      bestDistance = distance;
    }
  }
  return best;
}

/** Nearest level the vendor accepts; ties go to the higher level (less risk of a truncated answer). */
export function snapEffort(effort: Exclude<Effort, 'none'>, accepted: readonly Effort[]): Effort | undefined {
  const target = EFFORT_ORDER.indexOf(effort);
  let best: Effort | undefined;
  let bestDistance = Infinity;
  for (const candidate of accepted) {
    if (candidate === 'none') continue;
    const distance = Math.abs(EFFORT_ORDER.indexOf(candidate) - target);
    if (
      distance < bestDistance ||
      (distance === bestDistance && best !== undefined && EFFORT_ORDER.indexOf(candidate) > EFFORT_ORDER.indexOf(best))
    ) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Request fields that carry the client's reasoning wishes to this vendor. `outputCap` is the output-token
 * cap the request will carry (client's, or the model's where the vendor requires one).
 */
export function mapReasoning(
  reasoning: ReasoningRequest | undefined,
  profile: VendorProfile,
  supportsReasoning: boolean,
  outputCap: number | undefined,
): Record<string, unknown> {
  // Reasoning parameters on a non-reasoning model are a 400 at most vendors; the spec says "ignored".
  if (!reasoning || !supportsReasoning) return {};
  if (profile.reasoningParam === 'openrouter') return { reasoning: openRouterReasoning(reasoning) };
  if (profile.reasoningParam === 'none') return {};
  const intent = intentOf(reasoning);
  if (!intent) return {};

  switch (profile.reasoningParam) {
    case 'reasoning-effort': {
      if (intent.kind === 'off') {
        return profile.disableWith === 'none' && profile.efforts.includes('none') ? { reasoning_effort: 'none' } : {};
      }
      if (intent.kind === 'default') return {};
      const wanted = intent.kind === 'effort' ? intent.effort : effortForBudget(intent.tokens, outputCap);
      const effort = snapEffort(wanted, profile.efforts);
      return effort ? { reasoning_effort: effort } : {};
    }
    case 'deepseek-thinking': {
      if (intent.kind === 'off') return { thinking: { type: 'disabled' } };
      if (intent.kind === 'default') return { thinking: { type: 'enabled' } };
      const wanted = intent.kind === 'effort' ? intent.effort : effortForBudget(intent.tokens, outputCap);
      // DeepSeek documents high|max; lower levels map to high on their side anyway.
      return { thinking: { type: 'enabled' }, reasoning_effort: wanted === 'xhigh' ? 'max' : 'high' };
    }
    case 'anthropic-thinking': {
      if (intent.kind === 'off') return {};
      const cap = outputCap ?? 0;
      const requested =
        intent.kind === 'budget'
          ? intent.tokens
          : Math.floor(cap * EFFORT_SHARE[intent.kind === 'effort' ? intent.effort : 'medium']);
      // The budget must be at least 1024 and below max_tokens; with a smaller cap thinking cannot be on.
      const budget = Math.min(Math.max(requested, MIN_THINKING_BUDGET), cap - 1);
      return budget >= MIN_THINKING_BUDGET ? { thinking: { type: 'enabled', budget_tokens: budget } } : {};
    }
  }
}
