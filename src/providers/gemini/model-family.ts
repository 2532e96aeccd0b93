// What the adapter needs to know about a Gemini model from its name alone: the generation decides the
// thinking control (Gemini 3+ take `thinkingLevel`, 2.x a `thinkingBudget`) and whether function-call
// parts must carry a thought signature; the tier decides which levels and budgets are accepted.
export type GeminiTier = 'pro' | 'flash' | 'flash-lite';

export interface GeminiModelInfo {
  /** Major.minor as a number (2.5, 3, 3.1); undefined for non-Gemini models served by the API (Gemma). */
  generation?: number;
  tier?: GeminiTier;
}

const GEMINI_NAME = /^gemini-(\d+(?:\.\d+)?)-(pro|flash-lite|flash)\b/;

export function geminiModelInfo(upstreamModel: string): GeminiModelInfo {
  const name = upstreamModel.replace(/^models\//, '').toLowerCase();
  const match = GEMINI_NAME.exec(name);
  if (!match) return {};
  return { generation: Number(match[1]), tier: match[2] as GeminiTier };
}

/** Gemini 3 and later validate thought signatures on function calls and take thinking levels. */
export function isGemini3OrLater(info: GeminiModelInfo): boolean {
  return info.generation !== undefined && info.generation >= 3;
}
