// The stated estimate billed when a drain is cut before the provider reported usage: the reserved bound, never zero.
import { describe, expect, it } from 'vitest';
import { cutOffEstimate } from '../../src/pipeline/cut-off-estimate.js';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { maxCostNanos, costNanos } from '../../src/billing/pricing.js';

const nano = loadCatalog({}).get('openai/gpt-5.4-nano')!; // 400,000-token context, 128,000 max output
const meter = (prompt: number, seen: number) => ({ estimatedPromptTokens: prompt, generatedTokens: seen });

describe('cutOffEstimate', () => {
  it('bills the prompt estimate and max_tokens, the unseen part as reasoning', () => {
    const { usage, why } = cutOffEstimate(nano, 2000, meter(10, 3), 60_000);
    expect(usage).toEqual({
      promptTokens: 10,
      completionTokens: 2000,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 1997,
    });
    expect(why).toMatch(/60 s .*MODELGATE_DRAIN_ON_ABORT_S/);
    expect(cutOffEstimate(nano, 500, meter(10, 0), 1_000).usage.completionTokens).toBe(500);
  });

  it("without max_tokens: the model's maximum output, within the context window", () => {
    expect(cutOffEstimate(nano, undefined, meter(10, 0), 1_000).usage.completionTokens).toBe(128_000);
    expect(cutOffEstimate(nano, undefined, meter(390_000, 0), 1_000).usage.completionTokens).toBe(10_000);
  });

  it("is never zero, never below what was seen, and never above the reservation's bound", () => {
    const { usage } = cutOffEstimate(nano, 1, meter(10, 40), 1_000);
    expect(usage).toMatchObject({ completionTokens: 40, reasoningTokens: 0 });
    const bounded = cutOffEstimate(nano, 3000, meter(1000, 5), 1_000).usage;
    expect(costNanos(nano, bounded)).toBeGreaterThan(0n);
    expect(costNanos(nano, bounded)).toBeLessThanOrEqual(maxCostNanos(nano, 1000, 3000));
  });

  it('bills the web searches reserved for, never fewer than were seen, within the reservation', () => {
    const searched = cutOffEstimate(nano, 3000, { ...meter(1000, 5), webSearchesSeen: 1 }, 1_000, { webSearches: 10 });
    expect(searched.usage.webSearchRequests).toBe(10);
    expect(searched.why).toContain('and 10 web searches');
    expect(costNanos(nano, searched.usage)).toBeLessThanOrEqual(maxCostNanos(nano, 1000, 3000, { webSearches: 10 }));
    expect(
      cutOffEstimate(nano, 3000, { ...meter(1000, 5), webSearchesSeen: 12 }, 1_000, { webSearches: 10 }).usage
        .webSearchRequests,
    ).toBe(12);
    expect(cutOffEstimate(nano, 3000, meter(1000, 5), 1_000).usage).not.toHaveProperty('webSearchRequests');
  });
});
