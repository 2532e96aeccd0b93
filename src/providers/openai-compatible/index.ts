// The OpenAI-compatible provider kind: one implementation of ProviderAdapter, configured per vendor by vendors.ts,
// the chat protocol's native back door, OpenAI's Responses back door for the vendors whose profile speaks it, and
// the embeddings API. Pure functions only; the pipeline owns HTTP, billing and the client-facing format.
import type { ProviderAdapter } from '../adapter.js';
import type { ProviderBundle } from '../provider-bundle.js';
import { nativeResponses } from '../openai-responses/index.js';
import { createOpenAICompatibleEmbeddings } from './convert-embeddings.js';
import { nativeChat } from './native-chat.js';
import { buildRequest } from './convert-request.js';
import { parseCompletion } from './convert-response.js';
import { mapError } from './map-error.js';
import { createStreamTranslator } from './stream-translator.js';
import { resolveVendorProfile } from './vendors.js';
import { withToolLowering } from '../tool-lowering/tool-lowering-adapter.js';
import { chatToolPolicy } from './tool-policy.js';

export interface OpenAICompatibleAdapterOptions {
  /** Clock used for HTTP-date Retry-After values; injectable for tests. */
  now?: () => number;
}

export function createOpenAICompatibleAdapter(options: OpenAICompatibleAdapterOptions = {}): ProviderAdapter {
  const now = options.now ?? Date.now;
  return withToolLowering(
    {
      buildRequest,
      parseCompletion: (body) => parseCompletion(body),
      createStreamTranslator: (ctx) => createStreamTranslator({ providerId: ctx.provider.id, now }),
      mapError: (answer, ctx) => mapError(answer, { providerId: ctx.provider.id, now: now() }),
      acceptsFileParts: (provider) => resolveVendorProfile(provider).fileParts !== 'none',
      // OpenAI's reasoning models bill reasoning tokens the chat-completions stream never carries, and an aggregator
      // (OpenRouter) may route to them: any reasoning-capable model may hide tokens. Vendors that stream their
      // reasoning (DeepSeek) are drained too; that costs a connection for a while, never money.
      hidesReasoning: (_request, ctx) => ctx.model.supportsReasoning,
    },
    chatToolPolicy,
  );
}

/** Every OpenAI-compatible vendor: its protocols come from its profile (vendors.ts), OpenAI's include Responses. */
export const openAICompatibleBundle: ProviderBundle = {
  kind: 'openai-compatible',
  upstreamProtocols: (provider) => resolveVendorProfile(provider).protocols,
  adapter: createOpenAICompatibleAdapter(),
  natives: { chat: nativeChat, responses: nativeResponses },
  embeddings: createOpenAICompatibleEmbeddings(),
};

export { buildRequest, buildBody, chatCompletionsUrl } from './convert-request.js';
export { parseCompletion } from './convert-response.js';
export { createStreamTranslator, type StreamTranslatorOptions } from './stream-translator.js';
export { mapError, mapEmbeddedError } from './map-error.js';
export { mapFinishReason } from './map-finish-reason.js';
export { normalizeUsage } from './convert-usage.js';
export { parseRetryAfter } from '../parse-retry-after.js';
export { UpstreamPayloadError } from '../upstream-payload-error.js';
export {
  resolveVendorProfile,
  VENDOR_PROFILES,
  type VendorProfile,
  type ReasoningParam,
  type Effort,
} from './vendors.js';
