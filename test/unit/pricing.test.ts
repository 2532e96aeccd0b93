// Request cost from usage: exact bigint arithmetic, cache columns, long-prompt tiers, rounding, and
// the reservation upper bound.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costNanos, costNanosFor, maxCostNanos, selectPriceSet } from '../../src/billing/pricing.js';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { parseCatalog } from '../../src/catalog/parse-catalog.js';
import type { CatalogEntry } from '../../src/catalog/types.js';
import type { NormalizedUsage } from '../../src/core/generation.js';

const catalog = loadCatalog({});
const entry = (id: string): CatalogEntry => catalog.get(id)!;

function usage(u: Partial<NormalizedUsage>): NormalizedUsage {
  return { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, ...u };
}

/** A one-model catalog entry with the given pricing fields. */
function synthetic(pricing: Record<string, unknown>, tiers?: unknown[], contextLength = 10_000_000): CatalogEntry {
  const data = parseCatalog(
    {
      providers: { acme: { kind: 'openai-compatible', base_url: 'https://a.test' } },
      models: [
        {
          id: 'acme/m',
          upstream_model: 'm',
          name: 'M',
          created: 1,
          context_length: contextLength,
          supports_reasoning: true,
          supports_images: false,
          supports_tools: true,
          pricing,
          tiers,
        },
      ],
    },
    'test',
  );
  return data.models[0];
}

describe('costNanos', () => {
  it('prices prompt and completion tokens (reasoning is part of completion)', () => {
    // gpt-5.4: $2.50 in, $15 out per 1M → 1000×2.5 + 500×15 = 10,000 USD per 1M-token units = $0.01
    expect(
      costNanos(entry('openai/gpt-5.4'), usage({ promptTokens: 1000, completionTokens: 500, reasoningTokens: 400 })),
    ).toBe(10_000_000n);
  });

  it('bills cached reads and cache writes at their own prices', () => {
    // claude-sonnet-5-5: in 2, cached read 0.10, cache write 2.50, out 10 (USD per 1M)
    const u = usage({ promptTokens: 10_000, cachedTokens: 6_000, cacheWriteTokens: 2_000, completionTokens: 100 });
    // uncached 2000×2 + 6000×0.1 + 2000×2.5 + 100×10 = 4000 + 600 + 5000 + 1000 = 10,600 → $0.0106
    expect(costNanos(entry('anthropic/claude-sonnet-5-5'), u)).toBe(10_600_000n);
  });

  it('bills cached tokens at the input price when the model has no cache pricing', () => {
    const mistral = entry('mistral/mistral-large-2512'); // $0.50 in, no cache prices
    const cached = costNanos(mistral, usage({ promptTokens: 10_000, cachedTokens: 8_000, cacheWriteTokens: 1_000 }));
    expect(cached).toBe(costNanos(mistral, usage({ promptTokens: 10_000 })));
    expect(cached).toBe(5_000_000n); // 10,000 × $0.50 per 1M = $0.005
    // OpenAI has a cached-read price but bills cache writes as input.
    const mini = entry('openai/gpt-5.4-mini');
    expect(costNanos(mini, usage({ promptTokens: 1_000_000, cacheWriteTokens: 1_000_000 }))).toBe(750_000_000n);
    expect(costNanos(mini, usage({ promptTokens: 1_000_000, cachedTokens: 1_000_000 }))).toBe(75_000_000n);
  });

  it('bills 1-hour cache writes at their own price (Anthropic: 2× input) and the rest at the 5-minute price', () => {
    // claude-sonnet-5-5: in 2, 5-minute write 2.50 (1.25×), 1-hour write 4 (2×), out 10 (USD per 1M)
    const u = usage({
      promptTokens: 12_000,
      cacheWriteTokens: 10_000,
      cacheWrite1hTokens: 6_000,
      completionTokens: 100,
    });
    // uncached 2000×2 + 4000×2.5 + 6000×4 + 100×10 = 4000 + 10,000 + 24,000 + 1000 = 39,000 → $0.039
    expect(costNanos(entry('anthropic/claude-sonnet-5-5'), u)).toBe(39_000_000n);
    // Every write 1-hour: twice the input price; none: the 5-minute price.
    expect(
      costNanos(
        entry('anthropic/claude-sonnet-5-5'),
        usage({ promptTokens: 1_000_000, cacheWriteTokens: 1_000_000, cacheWrite1hTokens: 1_000_000 }),
      ),
    ).toBe(4_000_000_000n);
    expect(
      costNanos(entry('anthropic/claude-sonnet-5-5'), usage({ promptTokens: 1_000_000, cacheWriteTokens: 1_000_000 })),
    ).toBe(2_500_000_000n);
    // The long-prompt tier has its own 1-hour price (claude-sonnet-4-5 above 200K: input 6 → 12).
    expect(
      costNanos(
        entry('anthropic/claude-sonnet-4-5'),
        usage({ promptTokens: 1_000_000, cacheWriteTokens: 1_000_000, cacheWrite1hTokens: 1_000_000 }),
      ),
    ).toBe(12_000_000_000n);
  });

  it('never bills more 1-hour writes than cache writes, and bills them as 5-minute writes where the vendor has one price', () => {
    const sonnet = entry('anthropic/claude-sonnet-5-5');
    expect(costNanos(sonnet, usage({ promptTokens: 1_000, cacheWriteTokens: 1_000, cacheWrite1hTokens: 5_000 }))).toBe(
      costNanos(sonnet, usage({ promptTokens: 1_000, cacheWriteTokens: 1_000, cacheWrite1hTokens: 1_000 })),
    );
    const m = synthetic({ input: 1, output: 1, cached_write: 1.25 });
    expect(m.pricing.base.cachedWrite1h).toBe(1_250_000_000n);
    expect(
      costNanos(m, usage({ promptTokens: 1_000_000, cacheWriteTokens: 1_000_000, cacheWrite1hTokens: 1_000_000 })),
    ).toBe(1_250_000_000n);
    expect(synthetic({ input: 1, output: 1 }).pricing.base.cachedWrite1h).toBe(1_000_000_000n); // no cache prices: input
    expect(synthetic({ input: 1, output: 1, cached_write: 1.25, cached_write_1h: 2 }).pricing.base.cachedWrite1h).toBe(
      2_000_000_000n,
    );
  });

  it('never bills negative uncached input when a vendor over-reports cached tokens', () => {
    const u = usage({ promptTokens: 100, cachedTokens: 80, cacheWriteTokens: 40 });
    // uncached clamps to 0; the reported cache counts are still billed: 80×0.1 + 40×2.5 = 108 µUSD
    expect(costNanos(entry('anthropic/claude-sonnet-5-5'), u)).toBe(108_000n);
  });

  it('keeps a prompt of exactly the threshold on the lower tier and prices the whole request on the higher one above it', () => {
    const pro = entry('google/gemini-2.5-pro'); // ≤200K: 1.25/10, >200K: 2.5/15
    expect(costNanos(pro, usage({ promptTokens: 200_000, completionTokens: 1_000 }))).toBe(250_000_000n + 10_000_000n);
    expect(costNanos(pro, usage({ promptTokens: 200_001, completionTokens: 1_000 }))).toBe(500_002_500n + 15_000_000n);
    // cached reads follow the tier too: 0.125 → 0.25
    expect(costNanos(pro, usage({ promptTokens: 200_001, cachedTokens: 200_001 }))).toBe(50_000_250n);
  });

  it('picks the highest tier whose threshold the prompt exceeds', () => {
    const m = synthetic({ input: 1, output: 1 }, [
      { above_prompt_tokens: 1_000, input: 2, output: 2 },
      { above_prompt_tokens: 5_000, input: 4, output: 4 },
    ]);
    expect(selectPriceSet(m.pricing, 1_000).input).toBe(1_000_000_000n);
    expect(selectPriceSet(m.pricing, 1_001).input).toBe(2_000_000_000n);
    expect(selectPriceSet(m.pricing, 5_000).input).toBe(2_000_000_000n);
    expect(selectPriceSet(m.pricing, 5_001).input).toBe(4_000_000_000n);
  });

  it('sums exactly and rounds half up once at the end', () => {
    const m = synthetic({ input: '0.000000001', output: '0.000000001' }); // 1 nano per 1M tokens
    expect(costNanos(m, usage({ promptTokens: 499_999 }))).toBe(0n);
    expect(costNanos(m, usage({ promptTokens: 500_000 }))).toBe(1n);
    // Two parts of 0.3 nano would each round to 0 on their own; summed first they round to 1.
    expect(costNanos(m, usage({ promptTokens: 300_000, completionTokens: 300_000 }))).toBe(1n);
    expect(costNanos(m, usage({ promptTokens: 1_499_999 }))).toBe(1n);
  });

  it('costs nothing on free models', () => {
    expect(
      costNanos(entry('openrouter/openai/gpt-oss-120b:free'), usage({ promptTokens: 50_000, completionTokens: 4_000 })),
    ).toBe(0n);
  });

  it('prices reference blocks the same way (pass quotas)', () => {
    const m = synthetic({ input: 0.6, output: 2.2 });
    expect(costNanosFor(m.pricing, usage({ promptTokens: 1_000_000, completionTokens: 1_000_000 }))).toBe(
      2_800_000_000n,
    );
  });

  it.each([[-1], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])('rejects a usage count of %s', (bad) => {
    expect(() => costNanos(entry('openai/gpt-5.4'), usage({ completionTokens: bad }))).toThrow(RangeError);
  });
});

describe('maxCostNanos', () => {
  it('prices the whole prompt at the dearest prompt-side price and the output at the dearest output price, rounded up', () => {
    // claude-sonnet-4-5 top tier: input 6, cache write 7.50 (5 minutes) and 12 (1 hour), output 22.50
    expect(maxCostNanos(entry('anthropic/claude-sonnet-4-5'), 1_000, 1_000)).toBe(12_000_000n + 22_500_000n);
    const m = synthetic({ input: '0.000000001', output: 0 });
    expect(maxCostNanos(m, 1, 0)).toBe(1n); // 1e-6 nano rounds up, never down
    expect(maxCostNanos(entry('openrouter/openai/gpt-oss-20b:free'), 100_000, 100_000)).toBe(0n);
  });

  it('is never below the real cost of any usage within the bounds', () => {
    const ids = catalog.list().map((e) => e.id);
    fc.assert(
      fc.property(
        fc.constantFrom(...ids),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (id, prompt, maxOut, cachedShare, writeShare, oneHourShare) => {
          const cached = Math.floor(prompt * cachedShare);
          const cacheWrite = Math.floor((prompt - cached) * writeShare);
          const cacheWrite1h = Math.floor(cacheWrite * oneHourShare);
          const u = usage({
            promptTokens: prompt,
            completionTokens: maxOut,
            cachedTokens: cached,
            cacheWriteTokens: cacheWrite,
            cacheWrite1hTokens: cacheWrite1h,
          });
          expect(maxCostNanos(entry(id), prompt, maxOut)).toBeGreaterThanOrEqual(costNanos(entry(id), u));
        },
      ),
      { numRuns: 300 },
    );
  });
});
