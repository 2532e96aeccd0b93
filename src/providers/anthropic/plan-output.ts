// `max_tokens` (required by Anthropic) and the extended-thinking budget, decided together because the
// budget must be at least 1024 and strictly below max_tokens.
import type { GenerationRequest, ReasoningRequest } from '../../core/generation-request.js';
import type { AnthropicRequestBody, AnthropicThinking } from './wire-types.js';

/** Output cap sent when the client sets none: enough for a long answer, without reserving a model's
 *  whole (often 64K+) output window for every request. */
export const DEFAULT_MAX_TOKENS = 8192;
/** Anthropic's smallest accepted `budget_tokens`. */
export const MIN_THINKING_BUDGET = 1024;

/** Share of the output cap each effort level may spend thinking (OpenRouter's documented ratios). */
const EFFORT_SHARE: Readonly<Record<string, number>> = { minimal: 0.1, low: 0.2, medium: 0.5, high: 0.8, xhigh: 0.95 };

export interface OutputPlan {
  maxTokens: number;
  thinking?: AnthropicThinking;
  output_config?: AnthropicRequestBody['output_config'];
}

type Intent = { kind: 'budget'; tokens: number } | { kind: 'share'; share: number };

/**
 * What the client asked for. A budget is Anthropic's own unit, so it wins over `effort` when both are set;
 * `enabled: true` alone means medium effort; `exclude` alone asks for nothing.
 */
function intentOf(reasoning: ReasoningRequest | undefined): Intent | undefined {
  if (!reasoning || reasoning.enabled === false || reasoning.effort === 'none') return undefined;
  if (typeof reasoning.budgetTokens === 'number') {
    return reasoning.budgetTokens > 0 ? { kind: 'budget', tokens: Math.floor(reasoning.budgetTokens) } : undefined;
  }
  const share = reasoning.effort ? EFFORT_SHARE[reasoning.effort] : undefined;
  if (share !== undefined) return { kind: 'share', share };
  return reasoning.enabled === true || reasoning.adaptive === true
    ? { kind: 'share', share: EFFORT_SHARE.medium }
    : undefined;
}

/** Anthropic's effort levels for adaptive thinking; the gateway's top level is its `max`. */
const ADAPTIVE_EFFORT: Readonly<Record<string, string>> = {
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'max',
};

function thinkingOf(budget: number): AnthropicThinking | undefined {
  return budget >= MIN_THINKING_BUDGET ? { type: 'enabled', budget_tokens: budget } : undefined;
}

/**
 * - The client's cap (`max_completion_tokens` ?? `max_tokens`) is a hard limit it pays for: it is sent as
 *   is (clamped to the model's output limit) and the thinking budget shrinks to fit below it; when even
 *   1024 does not fit, thinking stays off.
 * - Without a client cap, the default is min(8192, model limit); a thinking budget that does not fit in it
 *   gets the default answer room on top (still within the model limit).
 * `thinkingAllowed` is false for models without reasoning support and for requests Anthropic would
 * reject with thinking on (see convert-request.ts).
 */
export function planOutput(
  request: Pick<GenerationRequest, 'maxOutputTokens' | 'reasoning'>,
  modelLimit: number | undefined,
  thinkingAllowed: boolean,
): OutputPlan {
  const limit = (n: number): number => Math.max(1, modelLimit ? Math.min(n, modelLimit) : n);
  const fromClient = request.maxOutputTokens;
  const clientCap = typeof fromClient === 'number' ? limit(Math.floor(fromClient)) : undefined;
  const reasoning = request.reasoning;
  if (thinkingAllowed && reasoning?.adaptive === true && reasoning.enabled !== false && reasoning.effort !== 'none') {
    // Adaptive thinking (the Messages door passes the client's own choice): no budget to fit, the effort says how hard.
    const plan: OutputPlan = { maxTokens: clientCap ?? limit(DEFAULT_MAX_TOKENS), thinking: { type: 'adaptive' } };
    const effort = reasoning.effort ? ADAPTIVE_EFFORT[reasoning.effort] : undefined;
    if (effort) plan.output_config = { effort };
    return plan;
  }
  const intent = thinkingAllowed ? intentOf(reasoning) : undefined;

  if (clientCap !== undefined) {
    if (!intent) return { maxTokens: clientCap };
    const requested = intent.kind === 'budget' ? intent.tokens : Math.floor(clientCap * intent.share);
    const thinking = thinkingOf(Math.min(Math.max(requested, MIN_THINKING_BUDGET), clientCap - 1));
    return thinking ? { maxTokens: clientCap, thinking } : { maxTokens: clientCap };
  }

  const fallback = limit(DEFAULT_MAX_TOKENS);
  if (!intent) return { maxTokens: fallback };
  const requested = Math.max(
    intent.kind === 'budget' ? intent.tokens : Math.floor(fallback * intent.share),
    MIN_THINKING_BUDGET,
  );
  const maxTokens = requested < fallback ? fallback : limit(requested + fallback);
  const thinking = thinkingOf(Math.min(requested, maxTokens - 1));
  return thinking ? { maxTokens, thinking } : { maxTokens };
}
