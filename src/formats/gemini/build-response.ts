// A whole generation → the Gemini GenerateContentResponse: the result's events through the stream's part rules
// (part-assembler.ts), so a streamed and a whole answer hold the same parts; adjacent plain text parts are joined.
import type { GenerationResult } from '../../core/generation.js';
import type { GenerationIdentity, GenerationTotals } from '../../core/stream-renderer.js';
import { resultEvents } from '../shared/output-blocks.js';
import { geminiChunk } from './gemini-stream-renderer.js';
import { GeminiPartAssembler } from './part-assembler.js';
import type { GeminiGenerateContentResponse, GeminiPart } from './wire-types.js';
import { toGeminiFinishReason, toGeminiUsage } from './wire-usage.js';

function isPlainText(part: GeminiPart): boolean {
  return (
    typeof part.text === 'string' &&
    Object.keys(part).every((key) => key === 'text' || (key === 'thought' && part.thought === true))
  );
}

function joinText(parts: GeminiPart[]): GeminiPart[] {
  const out: GeminiPart[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (last && isPlainText(last) && isPlainText(part) && last.thought === part.thought) last.text += part.text!;
    else out.push({ ...part });
  }
  return out;
}

export function buildGenerateContentResponse(
  result: GenerationResult,
  totals: GenerationTotals,
  identity: GenerationIdentity,
): GeminiGenerateContentResponse {
  const assembler = new GeminiPartAssembler(true);
  const parts = resultEvents(result).flatMap((event) => assembler.push(event));
  parts.push(...assembler.finish());
  return geminiChunk(identity, joinText(parts), {
    finishReason: toGeminiFinishReason(result.finishReason),
    usageMetadata: toGeminiUsage(totals.usage),
  });
}
