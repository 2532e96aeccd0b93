// Provider registry: environment → ProviderConfig per catalog provider.
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import {
  loadProviderConfigs,
  providerEnvPrefix,
  ProviderConfigError,
  upstreamProtocols,
} from '../../src/providers/registry.js';

const catalog = loadCatalog({});

describe('providerEnvPrefix', () => {
  it('upper-cases and turns non-alphanumerics into "_"', () => {
    expect(providerEnvPrefix('openai')).toBe('OPENAI');
    expect(providerEnvPrefix('x-ai')).toBe('X_AI');
    expect(providerEnvPrefix('my.vendor-2')).toBe('MY_VENDOR_2');
  });
});

describe('loadProviderConfigs', () => {
  it('builds one config per catalog provider (plus the pass/ upstream) with catalog defaults and no key by default', () => {
    const registry = loadProviderConfigs({}, catalog);
    expect(
      registry
        .list()
        .map((p) => p.id)
        .sort(),
    ).toEqual([...catalog.providers().map((p) => p.id), 'pass'].sort());
    expect(registry.getProvider('groq')).toEqual({
      id: 'groq',
      kind: 'openai-compatible',
      baseUrl: 'https://api.groq.com/openai/v1',
      protocols: ['chat'],
    });
    expect(registry.isConfigured('groq')).toBe(false);
    expect(registry.getProvider('acme')).toBeUndefined();
    expect(registry.isConfigured('acme')).toBe(false);
  });

  it('reads <PROVIDER>_API_KEY and <PROVIDER>_BASE_URL', () => {
    const registry = loadProviderConfigs(
      { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9999/v1/', X_AI_API_KEY: 'xai-1' },
      catalog,
    );
    expect(registry.getProvider('openai')).toEqual({
      id: 'openai',
      kind: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9999/v1',
      apiKey: 'sk-test',
      protocols: ['chat', 'responses'],
    });
    expect(registry.isConfigured('openai')).toBe(true);
    expect(registry.getProvider('x-ai')?.apiKey).toBe('xai-1');
  });

  it('derives the upstream protocols each provider speaks (a door of one of them goes there natively)', () => {
    const registry = loadProviderConfigs({}, catalog);
    expect(registry.getProvider('openai')?.protocols).toEqual(['chat', 'responses']);
    expect(registry.getProvider('openrouter')?.protocols).toEqual(['chat']);
    expect(registry.getProvider('deepseek')?.protocols).toEqual(['chat']);
    expect(registry.getProvider('anthropic')?.protocols).toEqual(['messages']);
    expect(registry.getProvider('google')?.protocols).toEqual(['gemini']);
    // A hand-built configuration (tests, an operator's quirks naming the vendor) derives them when read.
    expect(upstreamProtocols({ id: 'my-proxy', kind: 'openai-compatible', quirks: { vendor: 'openai' } })).toEqual([
      'chat',
      'responses',
    ]);
    expect(upstreamProtocols({ id: 'vllm', kind: 'openai-compatible' })).toEqual(['chat']);
  });

  it('accepts XAI_API_KEY and GEMINI_API_KEY, the canonical name winning', () => {
    const aliases = loadProviderConfigs({ XAI_API_KEY: 'alias-x', GEMINI_API_KEY: 'alias-g' }, catalog);
    expect(aliases.getProvider('x-ai')?.apiKey).toBe('alias-x');
    expect(aliases.getProvider('google')?.apiKey).toBe('alias-g');
    const both = loadProviderConfigs(
      { XAI_API_KEY: 'alias', X_AI_API_KEY: 'canonical', GOOGLE_API_KEY: 'g', GEMINI_API_KEY: 'a' },
      catalog,
    );
    expect(both.getProvider('x-ai')?.apiKey).toBe('canonical');
    expect(both.getProvider('google')?.apiKey).toBe('g');
  });

  it('treats empty or blank variables as unset', () => {
    const registry = loadProviderConfigs({ MISTRAL_API_KEY: '  ', MISTRAL_BASE_URL: '' }, catalog);
    expect(registry.isConfigured('mistral')).toBe(false);
    expect(registry.getProvider('mistral')?.baseUrl).toBe('https://api.mistral.ai/v1');
  });

  it.each([
    ['ftp://example.com/v1', 'DEEPSEEK_BASE_URL must be an http(s) URL, got protocol "ftp:"'],
    ['not a url', 'DEEPSEEK_BASE_URL must be an absolute http(s) URL'],
    ['api.deepseek.com', 'DEEPSEEK_BASE_URL must be an absolute http(s) URL'],
  ])('rejects DEEPSEEK_BASE_URL=%j naming the variable', (value, message) => {
    let error: unknown;
    try {
      loadProviderConfigs({ DEEPSEEK_BASE_URL: value }, catalog);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ProviderConfigError);
    expect((error as ProviderConfigError).variable).toBe('DEEPSEEK_BASE_URL');
    expect((error as Error).message).toContain(message);
  });

  it('does not echo a rejected base URL (it may embed credentials)', () => {
    expect(() => loadProviderConfigs({ OPENROUTER_BASE_URL: 'ftp://user:secret@host' }, catalog)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('secret') }),
    );
  });
});
