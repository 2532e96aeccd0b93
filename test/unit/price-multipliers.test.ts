// Price options (core/served-options.ts): the catalog's `pricing.multipliers` are factors on every token price for an
// option's served value (OpenAI's priority and flex tiers, Anthropic's fast mode and US-only inference), held in
// billionths; the cost multiplies the token part by the factor of each value the vendor says it served, never the
// per-use fees; the reservation bound does the same for the values the request asks for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costNanosFor, maxCostNanos } from '../../src/billing/pricing.js';
import { parseCatalog } from '../../src/catalog/parse-catalog.js';
import type { CatalogEntry } from '../../src/catalog/types.js';
import { toWireModel } from '../../src/catalog/wire-model.js';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import type { NormalizedUsage } from '../../src/core/generation.js';
import {
  requestedOptions,
  OPENAI_REQUEST_OPTIONS,
  ANTHROPIC_REQUEST_OPTIONS,
  servedOptionsOf,
} from '../../src/core/served-options.js';

function entry(pricing: Record<string, unknown>, tiers?: unknown[]): CatalogEntry {
  return parseCatalog(
    {
      providers: { acme: { kind: 'openai-compatible', base_url: 'https://a.test' } },
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
          pricing,
          tiers,
        },
      ],
    },
    'test',
  ).models[0];
}

function errorOf(pricing: Record<string, unknown>, tiers?: unknown[]): string {
  try {
    entry(pricing, tiers);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a catalog error');
}

function usage(u: Partial<NormalizedUsage>): NormalizedUsage {
  return { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, ...u };
}

const GPT = {
  input: 5,
  output: 30,
  cached_read: 0.5,
  web_search: 0.01,
  multipliers: { service_tier: { priority: 2.5, flex: 0.5 } },
};
const OPUS = {
  input: 4,
  output: 20,
  cached_read: 0.2,
  cached_write: 5,
  cached_write_1h: 8,
  multipliers: { speed: { fast: 2 }, inference_geo: { us: 1.1 } },
};

describe('catalog price multipliers', () => {
  it('are read per option and served value, in billionths', () => {
    expect(entry(GPT).pricing.multipliers).toEqual({ service_tier: { priority: 2_500_000_000n, flex: 500_000_000n } });
    expect(entry(OPUS).pricing.multipliers).toEqual({
      speed: { fast: 2_000_000_000n },
      inference_geo: { us: 1_100_000_000n },
    });
    expect(entry({ input: 1, output: 2 }).pricing.multipliers).toBeUndefined();
  });

  it('refuse an unknown option, a standard value, a factor that is not a positive number up to 100, and tiers that name one', () => {
    expect(errorOf({ input: 1, output: 2, multipliers: { region: { us: 1.1 } } })).toContain(
      'unknown field(s) "region"',
    );
    expect(errorOf({ input: 1, output: 2, multipliers: { service_tier: { default: 1 } } })).toContain(
      '"default" is the standard value',
    );
    expect(errorOf({ input: 1, output: 2, multipliers: { inference_geo: { global: 1 } } })).toContain(
      '"global" is the standard value',
    );
    expect(errorOf({ input: 1, output: 2, multipliers: { speed: { fast: 0 } } })).toContain(
      'fast must be a number above 0 and at most 100',
    );
    expect(errorOf({ input: 1, output: 2, multipliers: { speed: { fast: 'x' } } })).toContain(
      'fast must be a number above 0',
    );
    expect(errorOf({ input: 1, output: 2, multipliers: { speed: { fast: 600 } } })).toContain('at most 100');
    expect(
      errorOf({ input: 1, output: 2 }, [
        { above_prompt_tokens: 10, input: 2, output: 4, multipliers: { speed: { fast: 2 } } },
      ]),
    ).toContain('unknown field(s) "multipliers"');
  });
});

describe('multipliers in GET /models and the shipped catalog', () => {
  it('shows them as decimal strings under pricing.multipliers, only where the model has some', () => {
    expect(toWireModel(entry(OPUS)).pricing.multipliers).toEqual({
      speed: { fast: '2' },
      inference_geo: { us: '1.1' },
    });
    expect(toWireModel(entry({ input: 1, output: 2 })).pricing).not.toHaveProperty('multipliers');
  });

  it("an endpoint of another provider does not inherit the primary vendor's options", () => {
    const model = parseCatalog(
      {
        providers: {
          acme: { kind: 'openai-compatible', base_url: 'https://a.test' },
          other: { kind: 'openai-compatible', base_url: 'https://o.test' },
        },
        models: [
          {
            id: 'acme/m',
            upstream_model: 'm',
            name: 'M',
            created: 1,
            context_length: 1000,
            supports_reasoning: false,
            supports_images: false,
            supports_tools: true,
            pricing: GPT,
            endpoints: [{ provider: 'other' }],
          },
        ],
      },
      'test',
    ).models[0];
    expect(model.endpoints![1].entry.pricing.multipliers).toBeUndefined();
    expect(model.endpoints![1].entry.pricing.base).toEqual(model.pricing.base);
  });

  it("prices OpenAI's priority and flex tiers and Anthropic's fast mode and US-only inference from their pricing pages", () => {
    const catalog = loadCatalog({});
    const factors = (id: string) => toWireModel(catalog.get(id)!).pricing.multipliers;
    expect(factors('openai/gpt-5.5')).toEqual({ service_tier: { priority: '2.5', flex: '0.5' } });
    expect(factors('openai/gpt-5.4')).toEqual({ service_tier: { priority: '2', flex: '0.5' } });
    expect(factors('anthropic/claude-opus-5-5')).toEqual({ speed: { fast: '2' }, inference_geo: { us: '1.1' } });
    expect(factors('anthropic/claude-sonnet-4-5')).toBeUndefined();
  });
});

describe('cost of a served option', () => {
  const gpt = entry(GPT);
  const opus = entry(OPUS, undefined);

  it("multiplies the token part by the served value's factor, never the per-request fees", () => {
    // 10,000 in (2,000 cached) and 1,000 out: 8,000 × 5 + 2,000 × 0.5 + 1,000 × 30 = 71,000 USD per 1M → 71,000,000 nanos.
    const plain = usage({ promptTokens: 10_000, cachedTokens: 2_000, completionTokens: 1_000, webSearchRequests: 2 });
    expect(costNanosFor(gpt.pricing, plain)).toBe(71_000_000n + 20_000_000n);
    expect(costNanosFor(gpt.pricing, { ...plain, served: { service_tier: 'priority' } })).toBe(
      177_500_000n + 20_000_000n,
    );
    expect(costNanosFor(gpt.pricing, { ...plain, served: { service_tier: 'flex' } })).toBe(35_500_000n + 20_000_000n);
  });

  it("multiplies each served option's factor, the cache prices too (fast mode and US-only inference on one answer)", () => {
    // 1,000 in, 1,000 5m cache writes, 1,000 out: 4,000 + 5,000 + 20,000 = 29,000 → ×2 ×1.1 = 63,800 USD per 1M.
    const u = usage({ promptTokens: 2_000, cacheWriteTokens: 1_000, completionTokens: 1_000 });
    expect(costNanosFor(opus.pricing, u)).toBe(29_000_000n);
    expect(costNanosFor(opus.pricing, { ...u, served: { speed: 'fast', inference_geo: 'us' } })).toBe(63_800_000n);
    expect(costNanosFor(opus.pricing, { ...u, served: { inference_geo: 'us' } })).toBe(31_900_000n);
  });

  it('bills a value the catalog does not price at the standard price', () => {
    const u = usage({ promptTokens: 1_000, completionTokens: 1_000 });
    const standard = costNanosFor(gpt.pricing, u);
    for (const value of ['scale', 'ultrafast', 'constructor', '__proto__', 'toString']) {
      expect(costNanosFor(gpt.pricing, { ...u, served: { service_tier: value } })).toBe(standard);
    }
    expect(costNanosFor(gpt.pricing, { ...u, served: { speed: 'fast' } })).toBe(standard);
  });

  it('rounds the multiplied token part once, half up', () => {
    const tiny = entry({ input: 0.001, output: 0.001, multipliers: { service_tier: { priority: 1.5 } } });
    // 1 token at 0.001 USD per 1M = 1 nano; × 1.5 = 1.5 → 2.
    expect(costNanosFor(tiny.pricing, usage({ promptTokens: 1, served: { service_tier: 'priority' } }))).toBe(2n);
  });

  it('the reservation at the requested options bounds the cost of an answer served at them', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300_000 }),
        fc.integer({ min: 0, max: 300_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        fc.constantFrom(undefined, 'priority', 'flex', 'scale'),
        (prompt, output, cachedPct, maxOutPct, tier) => {
          const served = tier === undefined ? undefined : { service_tier: tier };
          const cached = Math.floor((prompt * cachedPct) / 100);
          const maxOut = output + Math.floor((output * maxOutPct) / 100);
          const cost = costNanosFor(
            gpt.pricing,
            usage({ promptTokens: prompt, cachedTokens: cached, completionTokens: output, served }),
          );
          expect(maxCostNanos(gpt, prompt, maxOut, { options: served })).toBeGreaterThanOrEqual(cost);
        },
      ),
    );
    expect(maxCostNanos(gpt, 1_000, 1_000, { options: { service_tier: 'priority' } })).toBe(87_500_000n);
    expect(maxCostNanos(gpt, 1_000, 1_000)).toBe(35_000_000n);
  });
});

describe('requested and served options', () => {
  it("a request names its options by served value: OpenAI's fast is priority, standard values are none", () => {
    expect(requestedOptions({ service_tier: 'fast' }, OPENAI_REQUEST_OPTIONS)).toEqual({ service_tier: 'priority' });
    expect(requestedOptions({ service_tier: 'flex' }, OPENAI_REQUEST_OPTIONS)).toEqual({ service_tier: 'flex' });
    for (const tier of ['auto', 'default', null, undefined, 3])
      expect(requestedOptions({ service_tier: tier }, OPENAI_REQUEST_OPTIONS)).toBeUndefined();
    expect(
      requestedOptions({ speed: 'fast', inference_geo: 'us', service_tier: 'auto' }, ANTHROPIC_REQUEST_OPTIONS),
    ).toEqual({ speed: 'fast', inference_geo: 'us' });
    expect(requestedOptions({ speed: 'standard', inference_geo: 'global' }, ANTHROPIC_REQUEST_OPTIONS)).toBeUndefined();
  });

  it("an answer's standard values are none", () => {
    expect(servedOptionsOf({ service_tier: 'standard', speed: 'standard', inference_geo: 'global' })).toBeUndefined();
    expect(servedOptionsOf({ service_tier: 'priority', inference_geo: 'not_available' })).toEqual({
      service_tier: 'priority',
    });
  });
});
