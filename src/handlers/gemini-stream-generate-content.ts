// POST /gemini/v1beta/models/{model}:streamGenerateContent — the Gemini door, streamed: Server-Sent Events with
// `alt=sse` (Gemini CLI, the Gen AI SDKs), else one JSON array sent chunk by chunk, as Google answers.
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { HitParts } from '../pipeline/response-cache/admit-cache-hit.js';
import type { Handler } from '../http/openapi-router.js';
import { queryString } from './query-params.js';
import { serveGeminiGeneration } from './gemini-generation.js';

export function geminiStreamGenerateContent(generations: GenerationParts & HitParts): Handler {
  return (api, ctx) =>
    serveGeminiGeneration(
      generations,
      api,
      ctx,
      queryString(api, 'alt')?.toLowerCase() === 'sse' ? 'sse' : 'json-array',
    );
}
