// The interface of a provider's embeddings API, beside the chat adapter (adapter.ts): pure functions that build the
// vendor's HTTP requests and read its answers and errors; the embeddings flow (src/pipeline/embeddings/) does the I/O.
import type { EmbeddingBatchResult, EmbeddingCall } from '../core/embedding.js';
import type { AdapterContext, ErrorAnswer, ProviderConfig, UpstreamErrorInfo, UpstreamRequest } from './adapter.js';
import type { ProviderKind } from '../core/provider-kind.js';

/** One vendor request and how many of the call's inputs (the next ones, in order) it carries. */
export interface EmbeddingUpstreamRequest {
  upstream: UpstreamRequest;
  inputs: number;
}

export interface EmbeddingAdapter {
  /**
   * The vendor requests for `call`, in input order: one, or several when the vendor takes fewer inputs per request
   * than the gateway accepts (Gemini: 100). Their answers' vectors, concatenated, are the inputs' vectors.
   */
  buildRequests(call: EmbeddingCall, ctx: AdapterContext): EmbeddingUpstreamRequest[];
  /** One answer's vectors (throws UpstreamPayloadError when it is not usable); `expected` is its inputs' count. */
  parseResponse(body: unknown, expected: number, call: EmbeddingCall, ctx: AdapterContext): EmbeddingBatchResult;
  mapError(answer: ErrorAnswer, ctx: AdapterContext): UpstreamErrorInfo;
  /** Whether the provider takes token ids as input (they are tokenizer-specific: OpenAI's models do). */
  acceptsTokenInput(provider: ProviderConfig): boolean;
}

/** The embedding adapter of each API kind that has one (Anthropic has no embeddings API). */
export type EmbeddingAdapters = Partial<Record<ProviderKind, EmbeddingAdapter>>;
