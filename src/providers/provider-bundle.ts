// What one provider kind brings to the gateway, in one object its folder exports (`<vendor>/index.ts`): the translated
// lane's adapter, the native lane's back door for each protocol it speaks, its embeddings and prompt-token counter
// when the vendor has them, and which upstream protocols a provider of the kind speaks. Error mapping is each
// adapter's own (`mapError`, the native readers' error events). bundles.ts lists the bundles; nothing that composes a
// request (pipeline, routing, server.ts) names a provider kind.
import type { GenerationRequest } from '../core/generation-request.js';
import type { ProviderKind } from '../core/provider-kind.js';
import type { WireProtocol } from '../core/wire-protocol.js';
import type { AdapterContext, ProviderAdapter, ProviderConfig, UpstreamRequest } from './adapter.js';
import type { EmbeddingAdapter } from './embedding-adapter.js';
import type { NativeProtocols } from './native/native-protocol.js';

/** A vendor's own prompt-token counter (Anthropic's POST /v1/messages/count_tokens), for the count_tokens doors. */
export interface PromptTokenCounter {
  /** The counter's request for the prompt of `request` (the same translation as a generation's). */
  buildRequest(request: GenerationRequest, ctx: AdapterContext): UpstreamRequest;
  /** The count in the counter's 200 answer, or undefined when the body holds none. */
  readCount(body: unknown): number | undefined;
}

/** The prompt-token counter of each provider kind that has one; the others answer the gateway's estimate. */
export type PromptTokenCounters = Partial<Record<ProviderKind, PromptTokenCounter>>;

export interface ProviderBundle {
  /** The catalog's `kind` of the providers this bundle serves. */
  kind: ProviderKind;
  /** The upstream protocols a provider of this kind speaks: a door of one of them goes there on the native lane. */
  upstreamProtocols(provider: Pick<ProviderConfig, 'id' | 'quirks'>): readonly WireProtocol[];
  /** The translated lane: the gateway's GenerationRequest to the vendor's API and back. */
  adapter: ProviderAdapter;
  /** The native lane's back door of each protocol it brings; kinds that speak one protocol share its one back door. */
  natives: NativeProtocols;
  /** POST /embeddings, when the vendor has an embeddings API. */
  embeddings?: EmbeddingAdapter;
  /** The vendor's prompt-token counter, when it has one the gateway uses. */
  countTokens?: PromptTokenCounter;
}
