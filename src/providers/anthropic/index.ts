// The Anthropic provider kind: the Messages API (POST /v1/messages) as the translated adapter and as the Messages
// door's native back door, and Anthropic's prompt-token counter. Pure functions only; the pipeline owns HTTP, billing
// and the client-facing format.
import type { ProviderAdapter } from '../adapter.js';
import type { ProviderBundle } from '../provider-bundle.js';
import { buildCountTokensRequest, readCountTokens } from './count-tokens.js';
import { nativeMessages } from './native-messages.js';
import { buildRequest } from './convert-request.js';
import { parseCompletion } from './convert-response.js';
import { mapError } from './map-error.js';
import { createStreamTranslator } from './stream-translator.js';
import { withToolLowering } from '../tool-lowering/tool-lowering-adapter.js';
import { anthropicToolPolicy } from './tool-policy.js';

export interface AnthropicAdapterOptions {
  /** Clock used for HTTP-date Retry-After values; injectable for tests. */
  now?: () => number;
}

export function createAnthropicAdapter(options: AnthropicAdapterOptions = {}): ProviderAdapter {
  const now = options.now ?? Date.now;
  return withToolLowering(
    {
      buildRequest,
      parseCompletion: (body, ctx) => parseCompletion(body, ctx.provider.id),
      createStreamTranslator: (ctx) => createStreamTranslator({ providerId: ctx.provider.id }),
      mapError: (answer, ctx) => mapError(answer, { providerId: ctx.provider.id, now: now() }),
      // Thinking streams as thinking_delta (redacted thinking as whole blocks): a client that leaves has seen every
      // token generated so far, so the upstream is aborted at once and what was streamed is billed.
      hidesReasoning: () => false,
    },
    anthropicToolPolicy,
  );
}

/** Providers of kind `anthropic` speak the Messages protocol; Anthropic has no embeddings API. */
export const anthropicBundle: ProviderBundle = {
  kind: 'anthropic',
  upstreamProtocols: () => ['messages'],
  adapter: createAnthropicAdapter(),
  natives: { messages: nativeMessages },
  countTokens: { buildRequest: buildCountTokensRequest, readCount: readCountTokens },
};

export { buildRequest, buildBody, messagesUrl, ANTHROPIC_VERSION, DEFAULT_BASE_URL } from './convert-request.js';
export { convertMessages, toolUseId, type ConvertedMessages } from './convert-messages.js';
export { convertTools, type ConvertedTools } from './convert-tools.js';
export { planOutput, DEFAULT_MAX_TOKENS, MIN_THINKING_BUDGET, type OutputPlan } from './plan-output.js';
export { parseCompletion } from './convert-response.js';
export { createStreamTranslator, type StreamTranslatorOptions } from './stream-translator.js';
export { mapError, mapStreamError } from './map-error.js';
export { mapFinishReason } from './map-finish-reason.js';
export { normalizeUsage, readUsage, mergeUsage, type UsageCounts } from './convert-usage.js';
export { restoreReasoningBlock, thinkingRecord, redactedRecord } from './reasoning-blocks.js';
export type { AnthropicRequestBody, AnthropicMessage } from './wire-types.js';
