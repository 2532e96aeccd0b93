// The native Google Gemini adapter (generateContent / streamGenerateContent on generativelanguage.googleapis.com).
// Pure functions only; the pipeline owns HTTP, billing and the client-facing format.
import type { ProviderAdapter } from '../adapter.js';
import { buildRequest } from './convert-request.js';
import { parseGeminiCompletion } from './convert-response.js';
import { mapGeminiError } from './map-error.js';
import { createGeminiStreamTranslator } from './stream-translator.js';
import { thinksUnseen } from './map-thinking.js';
import { withToolLowering } from '../tool-lowering/tool-lowering-adapter.js';
import { geminiToolPolicy } from './tool-policy.js';

export interface GeminiAdapterOptions {
  /** Clock for HTTP-date Retry-After values; injectable for tests. */
  now?: () => number;
}

export function createGeminiAdapter(options: GeminiAdapterOptions = {}): ProviderAdapter {
  const now = options.now ?? Date.now;
  return withToolLowering(
    {
      buildRequest,
      parseCompletion: (body, ctx) => parseGeminiCompletion(body, ctx.provider.id, ctx.model.upstreamModel),
      createStreamTranslator: (ctx) =>
        createGeminiStreamTranslator({ providerId: ctx.provider.id, upstreamModel: ctx.model.upstreamModel, now }),
      mapError: (status, body, headers, ctx) => mapGeminiError(status, body, headers, ctx.provider.id, now()),
      hidesReasoning: (request, ctx) =>
        thinksUnseen(request.reasoning, ctx.model.upstreamModel, ctx.model.supportsReasoning),
    },
    geminiToolPolicy,
  );
}

export { buildRequest, buildBody, generateContentUrl, outputCap, GEMINI_DEFAULT_BASE_URL } from './convert-request.js';
export { convertMessages, type ConvertedMessages, type GeminiContent } from './convert-messages.js';
export { toGeminiSchema, toGeminiParameters } from './convert-schema.js';
export { mapThinking } from './map-thinking.js';
export { parseGeminiCompletion } from './convert-response.js';
export { createGeminiStreamTranslator, type GeminiStreamOptions } from './stream-translator.js';
export { mapGeminiError, mapGeminiEmbeddedError } from './map-error.js';
export { mapGeminiFinishReason } from './map-finish-reason.js';
export { normalizeGeminiUsage } from './convert-usage.js';
export { GEMINI_REASONING_FORMAT, SKIP_SIGNATURE_VALIDATION } from './thought-signatures.js';
