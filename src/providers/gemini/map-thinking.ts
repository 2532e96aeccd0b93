// The gateway's reasoning request → Gemini's `generationConfig.thinkingConfig`.
// Gemini 3+ take a `thinkingLevel` (Pro: low/high, 3.1 Pro adds medium; Flash: minimal..high) and cannot
// turn thinking off; Gemini 2.5 take a `thinkingBudget` in a per-tier range (Pro 128..32768 and always on,
// Flash 0..24576, Flash-Lite 0 or 512..24576). Sending both, or a level the model lacks, is a 400
// (https://ai.google.dev/gemini-api/docs/thinking), so levels are snapped and budgets clamped here.
import type { ReasoningRequest } from '../../core/generation-request.js';
import { geminiModelInfo, isGemini3OrLater, type GeminiModelInfo } from './model-family.js';

type Level = 'minimal' | 'low' | 'medium' | 'high';
type Effort = Level | 'xhigh';

const LEVEL_ORDER: readonly Level[] = ['minimal', 'low', 'medium', 'high'];

/** Share of the output cap each effort spends on thinking (OpenRouter's documented allocation). */
const EFFORT_SHARE: Readonly<Record<Effort, number>> = { minimal: 0.1, low: 0.2, medium: 0.5, high: 0.8, xhigh: 0.95 };

/** Budget ranges of the 2.5 tiers; `off` is the budget that disables thinking, when the tier allows it. */
const BUDGETS: Readonly<Record<string, { min: number; max: number; off?: number }>> = {
  pro: { min: 128, max: 32768 },
  flash: { min: 1, max: 24576, off: 0 },
  'flash-lite': { min: 512, max: 24576, off: 0 },
};

type Intent =
  | { kind: 'off' }
  | { kind: 'default' }
  | { kind: 'effort'; effort: Effort }
  | { kind: 'budget'; tokens: number };

function intentOf(reasoning: ReasoningRequest | undefined): Intent {
  if (!reasoning) return { kind: 'default' };
  const effort = reasoning.effort;
  if (reasoning.enabled === false || effort === 'none') return { kind: 'off' };
  if (effort && effort in EFFORT_SHARE) return { kind: 'effort', effort: effort as Effort };
  if (typeof reasoning.budgetTokens === 'number')
    return reasoning.budgetTokens > 0 ? { kind: 'budget', tokens: reasoning.budgetTokens } : { kind: 'off' };
  return { kind: 'default' };
}

function levelsOf(info: GeminiModelInfo): readonly Level[] {
  if (info.tier !== 'pro') return LEVEL_ORDER;
  return (info.generation ?? 0) >= 3.1 ? ['low', 'medium', 'high'] : ['low', 'high'];
}

/** Nearest accepted level; ties go up (a truncated answer is worse than a slower one). */
function snapLevel(wanted: Level, accepted: readonly Level[]): Level {
  const target = LEVEL_ORDER.indexOf(wanted);
  let best = accepted[accepted.length - 1];
  let bestDistance = Infinity;
  for (const level of accepted) {
    const distance = Math.abs(LEVEL_ORDER.indexOf(level) - target);
    if (
      distance < bestDistance ||
      (distance === bestDistance && LEVEL_ORDER.indexOf(level) > LEVEL_ORDER.indexOf(best))
    ) {
      best = level;
      bestDistance = distance;
    }
  }
  return best;
}

/** A token budget expressed as a level, for models that only take levels. */
function levelForBudget(tokens: number): Level {
  if (tokens <= 1024) return 'minimal';
  if (tokens <= 4096) return 'low';
  if (tokens <= 16384) return 'medium';
  return 'high';
}

function levelConfig(intent: Intent, info: GeminiModelInfo): Record<string, unknown> {
  const accepted = levelsOf(info);
  switch (intent.kind) {
    case 'off':
      return { thinkingLevel: accepted[0] }; // cannot be disabled: the least thinking there is
    case 'default':
      return {};
    case 'effort':
      return { thinkingLevel: snapLevel(intent.effort === 'xhigh' ? 'high' : intent.effort, accepted) };
    case 'budget':
      return { thinkingLevel: snapLevel(levelForBudget(intent.tokens), accepted) };
  }
}

function budgetConfig(intent: Intent, info: GeminiModelInfo, outputCap: number | undefined): Record<string, unknown> {
  const range = BUDGETS[info.tier ?? 'flash'];
  const clamp = (n: number) => Math.min(Math.max(Math.round(n), range.min), range.max);
  switch (intent.kind) {
    case 'off':
      return { thinkingBudget: range.off ?? range.min };
    case 'default':
      return {};
    case 'effort': {
      // Without a cap to take a share of, the model's own maximum stands in.
      const base = outputCap ?? range.max;
      return { thinkingBudget: clamp(base * EFFORT_SHARE[intent.effort]) };
    }
    case 'budget':
      return { thinkingBudget: clamp(intent.tokens) };
  }
}

/**
 * The `thinkingConfig` to send, or undefined for none. `outputCap` is the maxOutputTokens the request
 * carries. Thoughts are requested (`includeThoughts`) unless the client turned reasoning off or excluded it.
 */
export function mapThinking(
  reasoning: ReasoningRequest | undefined,
  upstreamModel: string,
  supportsReasoning: boolean,
  outputCap: number | undefined,
): Record<string, unknown> | undefined {
  if (!supportsReasoning) return undefined;
  const intent = intentOf(reasoning);
  const info = geminiModelInfo(upstreamModel);
  const includeThoughts = intent.kind !== 'off' && reasoning?.exclude !== true;
  let control: Record<string, unknown>;
  if (isGemini3OrLater(info)) control = levelConfig(intent, info);
  else if (info.generation !== undefined) control = budgetConfig(intent, info, outputCap);
  // Other models on the API (Gemma) document no thinking controls: only whether thoughts are returned.
  else control = {};
  if (Object.keys(control).length === 0 && !includeThoughts) return undefined;
  return { ...control, includeThoughts };
}

/**
 * Whether the model may bill thinking tokens its stream never shows. Gemini bills every thinking token
 * (`thoughtsTokenCount`) and returns at most a summary of the thoughts (`includeThoughts` gives thought summaries),
 * so any Gemini that thinks hides tokens; only thinking turned off (a 2.x budget of 0) shows all it bills.
 */
export function thinksUnseen(
  reasoning: ReasoningRequest | undefined,
  upstreamModel: string,
  supportsReasoning: boolean,
): boolean {
  if (!supportsReasoning) return false;
  return mapThinking(reasoning, upstreamModel, supportsReasoning, undefined)?.thinkingBudget !== 0;
}
