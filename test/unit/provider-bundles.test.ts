// The provider bundles are the one list the gateway's provider parts are composed from: every kind the catalog may
// name has exactly one, and what a bundle brings (adapter, back doors, embeddings, token counter, protocols) reaches
// the parts by being listed, with no other change. test/e2e/provider-bundle-lanes.test.ts runs a listed fake through
// the gateway's lanes.
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/catalog.js';
import { PROVIDER_KINDS, type ProviderKind } from '../../src/core/provider-kind.js';
import { createAnthropicAdapter } from '../../src/providers/anthropic/index.js';
import { bundleOf, PROVIDER_BUNDLES, providerParts } from '../../src/providers/bundles.js';
import { createGeminiEmbeddings } from '../../src/providers/gemini/convert-embeddings.js';
import { nativeMessages } from '../../src/providers/anthropic/native-messages.js';
import type { NativeProtocol } from '../../src/providers/native/native-protocol.js';
import type { PromptTokenCounter, ProviderBundle } from '../../src/providers/provider-bundle.js';
import { loadProviderConfigs, upstreamProtocols } from '../../src/providers/registry.js';

const FAKE = 'fake-kind' as ProviderKind;
const counter: PromptTokenCounter = {
  buildRequest: () => ({ url: 'http://fake.test/count', method: 'POST', headers: {}, body: '{}' }),
  readCount: () => 7,
};
const fakeNative: NativeProtocol = { ...nativeMessages };
const fake: ProviderBundle = {
  kind: FAKE,
  upstreamProtocols: (provider) => (provider.id === 'fake-a' ? ['messages'] : []),
  adapter: createAnthropicAdapter(),
  natives: { messages: fakeNative },
  embeddings: createGeminiEmbeddings(),
  countTokens: counter,
};
const withoutMessages = PROVIDER_BUNDLES.filter((bundle) => !bundle.natives.messages);

describe('the provider bundles', () => {
  it('gives every provider kind exactly one bundle, and every bundle a known kind', () => {
    for (const kind of PROVIDER_KINDS) {
      expect(
        PROVIDER_BUNDLES.filter((bundle) => bundle.kind === kind),
        kind,
      ).toHaveLength(1);
    }
    expect(PROVIDER_BUNDLES.map((bundle) => bundle.kind).sort()).toEqual([...PROVIDER_KINDS].sort());
  });

  it('composes the build: an adapter per kind and one back door per protocol, from the list alone', () => {
    const parts = providerParts();
    expect(Object.keys(parts.adapters).sort()).toEqual([...PROVIDER_KINDS].sort());
    expect(Object.keys(parts.natives).sort()).toEqual(['chat', 'gemini', 'messages', 'responses']);
    for (const bundle of PROVIDER_BUNDLES) {
      expect(parts.adapters[bundle.kind]).toBe(bundle.adapter);
      expect(parts.embeddingAdapters[bundle.kind]).toBe(bundle.embeddings);
      expect(parts.tokenCounters[bundle.kind]).toBe(bundle.countTokens);
    }
  });

  it('a bundle added to the list brings its adapter, back door, embeddings and token counter', () => {
    const parts = providerParts([...withoutMessages, fake]);
    expect(parts.adapters[FAKE]).toBe(fake.adapter);
    expect(parts.natives.messages).toBe(fakeNative);
    expect(parts.embeddingAdapters[FAKE]).toBe(fake.embeddings);
    expect(parts.tokenCounters[FAKE]).toBe(counter);
    expect(bundleOf(FAKE, [...withoutMessages, fake])).toBe(fake);
  });

  it("a listed bundle's protocols reach the registry's provider configurations", () => {
    const catalog = new Catalog({
      source: 'test',
      models: [],
      providers: [
        { id: 'fake-a', name: 'A', kind: FAKE, baseUrl: 'http://a.test' },
        { id: 'fake-b', name: 'B', kind: FAKE, baseUrl: 'http://b.test' },
      ],
    });
    const registry = loadProviderConfigs({}, catalog, [...PROVIDER_BUNDLES, fake]);
    expect(registry.getProvider('fake-a')?.protocols).toEqual(['messages']);
    expect(registry.getProvider('fake-b')?.protocols).toEqual([]);
    // A kind no listed bundle serves speaks nothing natively (and has no adapter: routing skips it).
    expect(loadProviderConfigs({}, catalog).getProvider('fake-a')?.protocols).toEqual([]);
    expect(upstreamProtocols({ id: 'fake-a', kind: FAKE }, [fake])).toEqual(['messages']);
  });

  it('refuses two bundles of one kind, and two different back doors for one protocol', () => {
    expect(() => providerParts([...PROVIDER_BUNDLES, { ...fake, kind: 'anthropic' }])).toThrow(/kind anthropic/);
    expect(() => providerParts([...PROVIDER_BUNDLES, fake])).toThrow(/native back door for messages/);
    // Two kinds may share one back door (a second cloud serving the same protocol).
    expect(
      providerParts([...PROVIDER_BUNDLES, { ...fake, natives: { messages: nativeMessages } }]).natives.messages,
    ).toBe(nativeMessages);
  });
});
