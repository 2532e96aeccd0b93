// The one list of provider kinds this build includes: each kind's bundle (provider-bundle.ts), exported by its folder.
// The gateway's parts (server.ts) and the registry's protocols (registry.ts) are composed from it; a new kind is a
// folder with its bundle, listed here (and its name in core/provider-kind.ts).
import type { ProviderKind } from '../core/provider-kind.js';
import type { WireProtocol } from '../core/wire-protocol.js';
import type { ProviderAdapters } from './adapter.js';
import { anthropicBundle } from './anthropic/index.js';
import type { EmbeddingAdapters } from './embedding-adapter.js';
import { geminiBundle } from './gemini/index.js';
import type { NativeProtocols } from './native/native-protocol.js';
import { openAICompatibleBundle } from './openai-compatible/index.js';
import type { PromptTokenCounters, ProviderBundle } from './provider-bundle.js';

export const PROVIDER_BUNDLES: readonly ProviderBundle[] = [openAICompatibleBundle, anthropicBundle, geminiBundle];

/** The bundle of a provider kind in `bundles`, or undefined when the build includes none. */
export function bundleOf(
  kind: ProviderKind,
  bundles: readonly ProviderBundle[] = PROVIDER_BUNDLES,
): ProviderBundle | undefined {
  return bundles.find((bundle) => bundle.kind === kind);
}

/** What the pipeline and the handlers are handed of the bundles, each keyed as they look it up. */
export interface ProviderParts {
  /** The translated adapter of each provider kind. */
  adapters: ProviderAdapters;
  /** The native back door of each wire protocol. */
  natives: NativeProtocols;
  /** The embeddings API of each kind that has one. */
  embeddingAdapters: EmbeddingAdapters;
  /** The prompt-token counter of each kind that has one. */
  tokenCounters: PromptTokenCounters;
}

/**
 * The bundles' parts, keyed for lookup. Throws at startup when two bundles claim one kind, or bring different native
 * back doors for one protocol (a door's request has one way in); two kinds may share one back door.
 */
export function providerParts(bundles: readonly ProviderBundle[] = PROVIDER_BUNDLES): ProviderParts {
  const parts: ProviderParts = { adapters: {}, natives: {}, embeddingAdapters: {}, tokenCounters: {} };
  for (const bundle of bundles) {
    if (parts.adapters[bundle.kind]) throw new Error(`Two provider bundles are of kind ${bundle.kind}`);
    parts.adapters[bundle.kind] = bundle.adapter;
    if (bundle.embeddings) parts.embeddingAdapters[bundle.kind] = bundle.embeddings;
    if (bundle.countTokens) parts.tokenCounters[bundle.kind] = bundle.countTokens;
    for (const [protocol, native] of Object.entries(bundle.natives) as [
      WireProtocol,
      ProviderParts['natives'][WireProtocol],
    ][]) {
      const present = parts.natives[protocol];
      if (present && present !== native)
        throw new Error(`Two provider bundles bring a native back door for ${protocol}`);
      parts.natives[protocol] = native;
    }
  }
  return parts;
}
