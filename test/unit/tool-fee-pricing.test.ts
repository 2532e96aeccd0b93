// The other hosted tools' fees (core/tool-uses.ts): read from the catalog (one key per tool, USD per unit) into
// nano-dollars, inherited by tiers; added to the cost as Σ uses × price (code execution: the 5-minute minimum of its
// container-hour price); reserved for by admission; shown by GET /models.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costNanosFor, maxCostNanos, selectPriceSet } from '../../src/billing/pricing.js';
import { parseCatalog } from '../../src/catalog/parse-catalog.js';
import { toWireModel } from '../../src/catalog/wire-model.js';
import type { CatalogEntry } from '../../src/catalog/types.js';
import type { NormalizedUsage } from '../../src/core/generation.js';
import { HOSTED_TOOL_FEES, type ToolUses } from '../../src/core/tool-uses.js';

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

const FEES = { file_search: 0.0025, code_interpreter: 0.03, code_execution: 0.05, maps_grounding: 0.025 };

describe('catalog hosted tool fees', () => {
  it('are USD per unit, held as nano-dollars per unit; absent is 0; tiers keep the base fees unless they name others', () => {
    const model = entry({ input: 1, output: 2, ...FEES }, [
      { above_prompt_tokens: 1000, input: 2, output: 4, code_interpreter: 0.06 },
    ]);
    expect(model.pricing.base.toolFees).toEqual({
      file_search: 2_500_000n,
      code_interpreter: 30_000_000n,
      code_execution: 50_000_000n,
      maps_grounding: 25_000_000n,
    });
    expect(model.pricing.tiers[0].toolFees).toEqual({
      file_search: 2_500_000n,
      code_interpreter: 60_000_000n,
      code_execution: 50_000_000n,
      maps_grounding: 25_000_000n,
    });
    expect(entry({ input: 1, output: 2 }).pricing.base.toolFees).toEqual({
      file_search: 0n,
      code_interpreter: 0n,
      code_execution: 0n,
      maps_grounding: 0n,
    });
  });

  it('rejects a negative fee or one that looks per 1,000, naming the unit', () => {
    expect(errorOf({ input: 1, output: 2, file_search: -1 })).toContain(
      'file_search must be a non-negative number (USD per call)',
    );
    expect(errorOf({ input: 1, output: 2, file_search: 2.5 })).toContain(
      'file_search is above 1 USD per call; check the unit',
    );
    expect(errorOf({ input: 1, output: 2, maps_grounding: 25 })).toContain('USD per grounded prompt');
    expect(errorOf({ input: 1, output: 2, code_execution: 'x' })).toContain('USD per container-hour');
  });

  it('a free model has none; a fee alone makes a model paid', () => {
    expect(entry({ input: 0, output: 0, maps_grounding: 0.025 }).accessMode).not.toBe('free');
  });

  it('GET /models shows each under its key, USD per unit, only where charged', () => {
    const pricing = toWireModel(entry({ input: 1, output: 2, ...FEES })).pricing;
    expect(pricing).toMatchObject({
      file_search: '0.0025',
      code_interpreter: '0.03',
      code_execution: '0.05',
      maps_grounding: '0.025',
    });
    const plain = toWireModel(entry({ input: 1, output: 2 })).pricing;
    for (const tool of HOSTED_TOOL_FEES) expect(plain).not.toHaveProperty(tool);
  });
});

describe('cost of hosted tool uses', () => {
  const model = entry({ input: 3, output: 15, cached_read: 0.3, ...FEES }, [
    { above_prompt_tokens: 200_000, input: 6, output: 30, file_search: 0.005, code_execution: 0.1 },
  ]);
  const counts = fc.record({
    promptTokens: fc.integer({ min: 0, max: 400_000 }),
    completionTokens: fc.integer({ min: 0, max: 100_000 }),
    cachedTokens: fc.integer({ min: 0, max: 100_000 }),
    webSearchRequests: fc.integer({ min: 0, max: 20 }),
  });
  const uses = fc.record(
    {
      file_search: fc.integer({ min: 0, max: 1000 }),
      code_interpreter: fc.integer({ min: 0, max: 64 }),
      code_execution: fc.integer({ min: 0, max: 10 }),
      maps_grounding: fc.integer({ min: 0, max: 10 }),
    },
    { requiredKeys: [] },
  );
  /** Σ uses × price of the tier the prompt selects, code execution at 5/60 of its hourly price (rounded half up). */
  const expected = (u: ToolUses, promptTokens: number) => {
    const fees = selectPriceSet(model.pricing, promptTokens).toolFees;
    const n = (tool: keyof ToolUses) => BigInt(u[tool] ?? 0);
    return (
      n('file_search') * fees.file_search +
      n('code_interpreter') * fees.code_interpreter +
      n('maps_grounding') * fees.maps_grounding +
      (n('code_execution') * fees.code_execution * 5n + 30n) / 60n
    );
  };

  it('grows by exactly Σ uses × the fee of the tier the prompt selects', () => {
    fc.assert(
      fc.property(counts, uses, (u, toolUses) => {
        const base = usage(u);
        expect(costNanosFor(model.pricing, { ...base, toolUses }) - costNanosFor(model.pricing, base)).toBe(
          expected(toolUses, u.promptTokens),
        );
      }),
    );
  });

  it('prices each unit as its vendor does', () => {
    expect(costNanosFor(model.pricing, usage({ toolUses: { file_search: 2 } }))).toBe(5_000_000n); // 2 × 2.50 USD / 1,000
    expect(costNanosFor(model.pricing, usage({ toolUses: { code_interpreter: 4 } }))).toBe(120_000_000n); // a 4 GB container
    expect(costNanosFor(model.pricing, usage({ toolUses: { code_execution: 1 } }))).toBe(4_166_667n); // 5 min of 0.05 USD/h
    expect(costNanosFor(model.pricing, usage({ toolUses: { code_execution: 12 } }))).toBe(50_000_000n); // 12 × 5 min = 1 h
    expect(costNanosFor(model.pricing, usage({ toolUses: { maps_grounding: 1 } }))).toBe(25_000_000n); // 25 USD / 1,000
  });

  it('rejects a use count that is not a non-negative integer', () => {
    expect(() => costNanosFor(model.pricing, usage({ toolUses: { file_search: -1 } }))).toThrow(
      /toolUses\.file_search/,
    );
    expect(() => costNanosFor(model.pricing, usage({ toolUses: { code_execution: 0.5 } }))).toThrow(
      /toolUses\.code_execution/,
    );
  });

  it("the reservation covers every use it reserved for at the dearest tier's fee", () => {
    fc.assert(
      fc.property(counts, uses, (u, toolUses) => {
        const prompt = u.promptTokens + u.cachedTokens;
        const bound = maxCostNanos(model, prompt, u.completionTokens, { webSearches: u.webSearchRequests, toolUses });
        expect(bound).toBeGreaterThanOrEqual(
          costNanosFor(model.pricing, usage({ ...u, promptTokens: prompt, toolUses })),
        );
      }),
    );
    // One Anthropic container at the dearer tier: 5 minutes of 0.10 USD/h, rounded up.
    expect(maxCostNanos(model, 0, 0, { toolUses: { code_execution: 1 } }) - maxCostNanos(model, 0, 0)).toBe(8_333_334n);
    expect(maxCostNanos(model, 0, 0, { toolUses: { file_search: 10 } }) - maxCostNanos(model, 0, 0)).toBe(50_000_000n);
  });

  it('bounds a request that offers no tool as the per-use computation does with every count at zero', () => {
    const zeroUses = Object.fromEntries(HOSTED_TOOL_FEES.map((tool) => [tool, 0])) as ToolUses;
    const searchModel = entry({ input: 3, output: 15, web_search: 0.01, ...FEES });
    fc.assert(
      fc.property(counts, fc.constantFrom(model, searchModel), (u, priced) => {
        const skipped = maxCostNanos(priced, u.promptTokens, u.completionTokens);
        // Counts given (zero) take the full per-use path.
        expect(skipped).toBe(maxCostNanos(priced, u.promptTokens, u.completionTokens, { webSearches: 0 }));
        expect(skipped).toBe(maxCostNanos(priced, u.promptTokens, u.completionTokens, { toolUses: zeroUses }));
        expect(skipped).toBe(maxCostNanos(priced, u.promptTokens, u.completionTokens, { options: {} }));
      }),
    );
  });
});
