// The shipped catalog: loads, covers every provider the issue names, prices convert exactly.
import { describe, expect, it } from 'vitest';
import raw from '../../src/catalog/catalog.json' with { type: 'json' };
import { loadCatalog, loadCatalogData } from '../../src/catalog/load-catalog.js';
import { parseModelId } from '../../src/catalog/model-id.js';

const PROVIDERS = ['openai', 'anthropic', 'google', 'deepseek', 'mistral', 'x-ai', 'groq', 'openrouter'];
const data = loadCatalogData({});
const catalog = loadCatalog({});

describe('shipped catalog', () => {
  it('loads and names its source', () => {
    expect(data.models.length).toBeGreaterThan(20);
    expect(data.source).toContain('shipped');
  });

  it('lists every provider of the issue with its adapter kind and http(s) defaults', () => {
    expect(data.providers.map((p) => p.id).sort()).toEqual([...PROVIDERS].sort());
    const native: Record<string, string> = { anthropic: 'anthropic', google: 'gemini' };
    for (const p of data.providers) {
      expect([native[p.id], 'openai-compatible']).toContain(p.kind);
      if (!native[p.id]) expect(p.kind).toBe('openai-compatible');
      expect(p.baseUrl).toMatch(/^https:\/\/[^/]+/);
      expect(p.baseUrl.endsWith('/')).toBe(false);
    }
    expect(catalog.provider('anthropic')).toMatchObject({ kind: 'anthropic', baseUrl: 'https://api.anthropic.com' });
    expect(catalog.provider('google')).toMatchObject({
      kind: 'gemini',
      baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    });
  });

  it('has at least three models per provider (DeepSeek offers two)', () => {
    for (const provider of PROVIDERS) {
      const count = data.models.filter((m) => m.provider === provider).length;
      expect(count, provider).toBeGreaterThanOrEqual(provider === 'deepseek' ? 2 : 3);
    }
  });

  it('ids are unique, well-formed and prefixed by their provider', () => {
    const ids = data.models.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of data.models) {
      expect(parseModelId(m.id)?.provider, m.id).toBe(m.provider);
      expect(m.upstreamProvider).toBe(m.provider);
      expect(m.upstreamModel.length).toBeGreaterThan(0);
    }
  });

  it('routes aggregator ids to the vendor name after the provider segment', () => {
    for (const m of data.models.filter((e) => e.provider === 'openrouter' || e.provider === 'groq')) {
      expect(m.id).toBe(`${m.provider}/${m.upstreamModel}`);
    }
  });

  it('has free models: OpenRouter ":free" ids and a zero-priced non-":free" entry', () => {
    const free = data.models.filter((m) => catalog.isFree(m));
    expect(free.some((m) => m.id.endsWith(':free'))).toBe(true);
    expect(free.some((m) => !m.id.endsWith(':free'))).toBe(true);
    for (const m of free) {
      expect(m.accessMode).toBe('free');
      const { toolFees, ...prices } = m.pricing.base;
      expect(Object.values(prices)).toEqual([0n, 0n, 0n, 0n, 0n, 0n]);
      expect(Object.values(toolFees)).toEqual([0n, 0n, 0n, 0n]);
    }
    for (const m of data.models.filter((e) => e.id.endsWith(':free'))) expect(catalog.isFree(m), m.id).toBe(true);
  });

  it('keeps tiers strictly ascending and below the context window', () => {
    const tiered = data.models.filter((m) => m.pricing.tiers.length > 0);
    expect(tiered.map((m) => m.id)).toEqual(
      expect.arrayContaining(['google/gemini-2.5-pro', 'anthropic/claude-sonnet-4-5', 'openai/gpt-5.5']),
    );
    for (const m of tiered) {
      const thresholds = m.pricing.tiers.map((t) => t.abovePromptTokens);
      expect(thresholds).toEqual([...thresholds].sort((a, b) => a - b));
      expect(new Set(thresholds).size).toBe(thresholds.length);
      expect(thresholds.every((t) => t < m.contextLength)).toBe(true);
      // A long-prompt tier never gets cheaper.
      expect(m.pricing.tiers[0].input).toBeGreaterThanOrEqual(m.pricing.base.input);
    }
    // The file itself lists tiers in order (not sorted by the loader behind our back).
    for (const m of raw.models as Array<{ tiers?: Array<{ above_prompt_tokens: number }> }>) {
      const t = (m.tiers ?? []).map((x) => x.above_prompt_tokens);
      expect(t).toEqual([...t].sort((a, b) => a - b));
    }
  });

  it('converts list prices exactly to nano-dollars per 1M tokens', () => {
    const mini = catalog.get('openai/gpt-5.4-mini')!;
    expect(mini.pricing.base).toEqual({
      input: 750_000_000n,
      output: 4_500_000_000n,
      cachedRead: 75_000_000n,
      cachedWrite: 750_000_000n, // OpenAI bills cache writes as input
      cachedWrite1h: 750_000_000n, // one cache-write price whatever the lifetime
      webSearch: 10_000_000n, // 10 USD per 1,000 web search calls: 0.01 USD a call
      // 2.50 USD per 1,000 file search calls; 0.03 USD per 1 GB code interpreter container
      toolFees: { file_search: 2_500_000n, code_interpreter: 30_000_000n, code_execution: 0n, maps_grounding: 0n },
    });
    expect(catalog.get('groq/openai/gpt-oss-20b')!.pricing.base.cachedRead).toBe(37_500_000n);
    expect(catalog.get('anthropic/claude-haiku-5-5')!.pricing.tiers[0]).toEqual({
      abovePromptTokens: 100_000,
      input: 500_000_000n,
      output: 2_500_000_000n,
      cachedRead: 50_000_000n,
      cachedWrite: 625_000_000n,
      cachedWrite1h: 1_000_000_000n,
      webSearch: 10_000_000n, // the tier names no fee: the base block's
      toolFees: { file_search: 0n, code_interpreter: 0n, code_execution: 50_000_000n, maps_grounding: 0n }, // likewise
    });
  });

  it("charges each vendor's web search fee per request on the models that can search (the pricing pages)", () => {
    const fee = (id: string) => catalog.get(id)!.pricing;
    // Anthropic and OpenAI: 10 USD per 1,000 searches.
    for (const id of [
      'anthropic/claude-opus-5-5',
      'anthropic/claude-sonnet-5-5',
      'anthropic/claude-haiku-5-5',
      'anthropic/claude-sonnet-4-5',
      'openai/gpt-5.5',
      'openai/gpt-5.4',
      'openai/gpt-5.4-mini',
      'openai/gpt-5.4-nano',
    ]) {
      expect(fee(id).base.webSearch, id).toBe(10_000_000n);
      for (const tier of fee(id).tiers) expect(tier.webSearch, id).toBe(10_000_000n);
    }
    // Gemini 3: 14 USD per 1,000 search queries; Gemini 2.5: 35 USD per 1,000 grounded prompts.
    expect(fee('google/gemini-3.1-pro-preview').base.webSearch).toBe(14_000_000n);
    expect(fee('google/gemini-3.5-flash').base.webSearch).toBe(14_000_000n);
    expect(fee('google/gemini-2.5-pro').base.webSearch).toBe(35_000_000n);
    expect(fee('google/gemini-2.5-flash').base.webSearch).toBe(35_000_000n);
    // Vendors without a hosted search the gateway meters charge none.
    expect(fee('deepseek/deepseek-v4-pro').base.webSearch).toBe(0n);
  });

  it("charges the other hosted tools' fees on the models whose native lane passes them (the pricing pages)", () => {
    const fees = (id: string) =>
      [catalog.get(id)!.pricing.base, ...catalog.get(id)!.pricing.tiers].map((set) => set.toolFees);
    // OpenAI: file search 2.50 USD per 1,000 calls, code interpreter 0.03 USD per 1 GB container.
    for (const id of ['openai/gpt-5.5', 'openai/gpt-5.4', 'openai/gpt-5.4-mini', 'openai/gpt-5.4-nano']) {
      for (const set of fees(id))
        expect(set, id).toEqual({
          file_search: 2_500_000n,
          code_interpreter: 30_000_000n,
          code_execution: 0n,
          maps_grounding: 0n,
        });
    }
    // Anthropic: code execution 0.05 USD per container-hour.
    for (const id of [
      'anthropic/claude-opus-5-5',
      'anthropic/claude-sonnet-5-5',
      'anthropic/claude-haiku-5-5',
      'anthropic/claude-sonnet-4-5',
    ]) {
      for (const set of fees(id))
        expect(set, id).toEqual({
          file_search: 0n,
          code_interpreter: 0n,
          code_execution: 50_000_000n,
          maps_grounding: 0n,
        });
    }
    // Gemini: grounding with Google Maps 25 USD per 1,000 grounded prompts.
    for (const id of [
      'google/gemini-3.1-pro-preview',
      'google/gemini-3.5-flash',
      'google/gemini-2.5-pro',
      'google/gemini-2.5-flash',
    ]) {
      for (const set of fees(id))
        expect(set, id).toEqual({
          file_search: 0n,
          code_interpreter: 0n,
          code_execution: 0n,
          maps_grounding: 25_000_000n,
        });
    }
    expect(fees('deepseek/deepseek-v4-pro')).toEqual([
      { file_search: 0n, code_interpreter: 0n, code_execution: 0n, maps_grounding: 0n },
    ]);
  });

  it("prices a 1-hour cache write of every Claude model at 2× input, a 5-minute one at 1.25× (Anthropic's pricing page)", () => {
    const claude = data.models.filter((m) => m.upstreamModel.includes('claude'));
    expect(claude.length).toBeGreaterThanOrEqual(5);
    for (const m of claude) {
      for (const set of [m.pricing.base, ...m.pricing.tiers]) {
        expect(set.cachedWrite1h, m.id).toBe(set.input * 2n);
        expect(set.cachedWrite * 4n, m.id).toBe(set.input * 5n);
      }
    }
  });

  it('gives every entry sane limits and timestamps', () => {
    for (const m of data.models) {
      expect(m.created, m.id).toBeGreaterThan(1_600_000_000);
      expect(m.created, m.id).toBeLessThan(1_800_000_000);
      if (m.maxOutputTokens !== undefined) expect(m.maxOutputTokens).toBeLessThanOrEqual(m.contextLength);
    }
  });

  it('keeps subscription models in the pass/ namespace (test/unit/pass-catalog.test.ts checks them in detail)', () => {
    for (const m of data.models) expect(m.id.startsWith('pass/'), m.id).toBe(m.accessMode === 'pass');
  });
});
