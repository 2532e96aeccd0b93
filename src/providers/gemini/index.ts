// The Gemini provider kind (generateContent / streamGenerateContent on generativelanguage.googleapis.com): the
// translated adapter, the Gemini door's native back door and the embeddings API (embedContent, batchEmbedContents).
// Pure functions only; the pipeline owns HTTP, billing and the client-facing format.
import type { ProviderAdapter } from '../adapter.js';
import type { ProviderBundle } from '../provider-bundle.js';
import { createGeminiEmbeddings } from './convert-embeddings.js';
import { nativeGemini } from './native-gemini.js';
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
      mapError: (answer, ctx) => mapGeminiError(answer, { providerId: ctx.provider.id, now: now() }),
      hidesReasoning: (request, ctx) =>
        thinksUnseen(request.reasoning, ctx.model.upstreamModel, ctx.model.supportsReasoning),
    },
    geminiToolPolicy,
  );
}

/** Providers of kind `gemini` speak Gemini's own protocol. Its countTokens is not wired: the door answers an estimate. */
export const geminiBundle: ProviderBundle = {
  kind: 'gemini',
  upstreamProtocols: () => ['gemini'],
  adapter: createGeminiAdapter(),
  natives: { gemini: nativeGemini },
  embeddings: createGeminiEmbeddings(),
};

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
