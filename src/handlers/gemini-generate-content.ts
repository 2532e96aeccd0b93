// POST /gemini/v1beta/models/{model}:generateContent — the Gemini door, one JSON answer (gemini-generation.ts).
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { HitParts } from '../pipeline/response-cache/admit-cache-hit.js';
import type { Handler } from '../http/openapi-router.js';
import { serveGeminiGeneration } from './gemini-generation.js';

export function geminiGenerateContent(generations: GenerationParts & HitParts): Handler {
  return (api, ctx) => serveGeminiGeneration(generations, api, ctx, undefined);
}
