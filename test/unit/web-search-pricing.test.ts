// The per-request web search fee: read from the catalog (`web_search`, USD per request) into nano-dollars, valid in
// tiers and endpoints; added to the cost as count × fee; reserved for by admission; shown by GET /models.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costNanosFor, maxCostNanos, selectPriceSet } from '../../src/billing/pricing.js';
import { parseCatalog } from '../../src/catalog/parse-catalog.js';
import { toWireModel } from '../../src/catalog/wire-model.js';
import type { CatalogEntry } from '../../src/catalog/types.js';
import type { NormalizedUsage } from '../../src/core/generation.js';

function entries(model: Record<string, unknown>): CatalogEntry[] {
  const data = parseCatalog(
    {
      providers: {
        acme: { kind: 'openai-compatible', base_url: 'https://a.test' },
        beta: { kind: 'openai-compatible', base_url: 'https://b.test' },
      },
      models: [
        {
          id: 'acme/m',
          upstream_model: 'm',
          name: 'M',
          created: 1,
          context_length: 1_000_000,
          supports_reasoning: true,
          supports_images: false,
          supports_tools: true,
          ...model,
        },
      ],
    },
    'test',
  );
  return data.models;
}

const entry = (pricing: Record<string, unknown>, tiers?: unknown[]) => entries({ pricing, tiers })[0];

function errorOf(pricing: Record<string, unknown>): string {
  try {
    entry(pricing);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a catalog error');
}

function usage(u: Partial<NormalizedUsage>): NormalizedUsage {
  return { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, ...u };
}

describe('catalog web_search', () => {
  it('is USD per request, held as nano-dollars per request; absent is 0', () => {
    expect(entry({ input: 1, output: 2, web_search: 0.01 }).pricing.base.webSearch).toBe(10_000_000n);
    expect(entry({ input: 1, output: 2, web_search: '0.014' }).pricing.base.webSearch).toBe(14_000_000n);
    expect(entry({ input: 1, output: 2 }).pricing.base.webSearch).toBe(0n);
  });

  it('rejects a negative fee, a non-number and a per-1K price pasted as per request', () => {
    expect(errorOf({ input: 1, output: 2, web_search: -0.01 })).toContain(
      'web_search must be a non-negative number (USD per request)',
    );
    expect(errorOf({ input: 1, output: 2, web_search: '1e-2' })).toContain('web_search must be a non-negative number');
    expect(errorOf({ input: 1, output: 2, web_search: 10 })).toContain(
      'web_search is above 1 USD per request; check the unit',
    );
  });

  it("a tier keeps the base fee unless it names its own; an endpoint's own price block has its own", () => {
    const tiered = entry({ input: 1, output: 2, web_search: 0.01 }, [
      { above_prompt_tokens: 1000, input: 2, output: 4 },
      { above_prompt_tokens: 2000, input: 3, output: 6, web_search: 0.02 },
    ]);
    expect(tiered.pricing.tiers.map((t) => t.webSearch)).toEqual([10_000_000n, 20_000_000n]);
    const [model] = entries({
      pricing: { input: 1, output: 2, web_search: 0.01 },
      endpoints: [{ provider: 'beta', upstream_model: 'b', pricing: { input: 1, output: 2, web_search: 0.005 } }],
    });
    expect(model.endpoints!.map((e) => e.entry.pricing.base.webSearch)).toEqual([10_000_000n, 5_000_000n]);
  });

  it('makes a model with only a search fee a paid one', () => {
    expect(entry({ input: 0, output: 0, web_search: 0.01 }).accessMode).toBe('credits');
    expect(entry({ input: 0, output: 0 }).accessMode).toBe('free');
  });

  it("GET /models shows it as OpenRouter's pricing.web_search (USD per request), only where it is charged", () => {
    expect(toWireModel(entry({ input: 1, output: 2, web_search: 0.01 })).pricing.web_search).toBe('0.01');
    expect(toWireModel(entry({ input: 1, output: 2, web_search: 0.035 })).pricing.web_search).toBe('0.035');
    expect(toWireModel(entry({ input: 1, output: 2 })).pricing).not.toHaveProperty('web_search');
  });
});

describe('cost of web searches', () => {
  const model = entry({ input: 3, output: 15, cached_read: 0.3, web_search: 0.01 }, [
    { above_prompt_tokens: 200_000, input: 6, output: 30, web_search: 0.02 },
  ]);
  const counts = fc.record({
    promptTokens: fc.integer({ min: 0, max: 400_000 }),
    completionTokens: fc.integer({ min: 0, max: 100_000 }),
    cachedTokens: fc.integer({ min: 0, max: 100_000 }),
  });

  it('grows by exactly count × the fee of the tier the prompt selects', () => {
    fc.assert(
      fc.property(counts, fc.integer({ min: 0, max: 1000 }), (u, searches) => {
        const base = usage(u);
        const fee = selectPriceSet(model.pricing, u.promptTokens).webSearch;
        expect(
          costNanosFor(model.pricing, { ...base, webSearchRequests: searches }) - costNanosFor(model.pricing, base),
        ).toBe(BigInt(searches) * fee);
      }),
    );
  });

  it('is 10,000,000 nano-dollars (0.01 USD) a search at 10 USD per 1,000', () => {
    expect(costNanosFor(model.pricing, usage({ webSearchRequests: 3 }))).toBe(30_000_000n);
  });

  it('rejects a count that is not a non-negative integer', () => {
    expect(() => costNanosFor(model.pricing, usage({ webSearchRequests: -1 }))).toThrow(/webSearchRequests/);
    expect(() => costNanosFor(model.pricing, usage({ webSearchRequests: 1.5 }))).toThrow(/webSearchRequests/);
  });

  it("the reservation covers every search it reserved for at the dearest tier's fee", () => {
    fc.assert(
      fc.property(counts, fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 }), (u, reserved, extra) => {
        const prompt = u.promptTokens + u.cachedTokens;
        const bound = maxCostNanos(model, prompt, u.completionTokens, { webSearches: reserved + extra });
        const cost = costNanosFor(model.pricing, usage({ ...u, promptTokens: prompt, webSearchRequests: reserved }));
        expect(bound).toBeGreaterThanOrEqual(cost);
      }),
    );
    expect(maxCostNanos(model, 0, 0, { webSearches: 10 }) - maxCostNanos(model, 0, 0)).toBe(200_000_000n); // 10 × 0.02 USD
  });
});
