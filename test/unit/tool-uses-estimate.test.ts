// What is billed for the other hosted tools when the vendor's usage never arrived: the uses the answer showed (the
// meter's estimate), or, for a drain cut before the provider reported usage, the uses reserved for, never fewer than
// were shown, within the reservation; a failed attempt's uses are forgotten.
import { describe, expect, it } from 'vitest';
import { GenerationMeter } from '../../src/pipeline/generation-meter.js';
import { cutOffEstimate } from '../../src/pipeline/cut-off-estimate.js';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { costNanos, maxCostNanos } from '../../src/billing/pricing.js';

const gpt = loadCatalog({}).get('openai/gpt-5.4')!;

describe("hosted tool uses without the vendor's usage", () => {
  it("the meter's estimate counts the most each tool showed; the vendor's usage replaces it; a failed attempt forgets", () => {
    const meter = new GenerationMeter(100);
    meter.observeToolUses({ file_search: 1 });
    meter.observeToolUses({ file_search: 3, code_interpreter: 4 });
    meter.observeToolUses({ file_search: 2 });
    expect(meter.finalUsage()).toMatchObject({ promptTokens: 100, toolUses: { file_search: 3, code_interpreter: 4 } });
    meter.resetAttempt();
    expect(meter.finalUsage()).not.toHaveProperty('toolUses');
    const reported = {
      promptTokens: 10,
      completionTokens: 5,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      toolUses: { file_search: 2 },
    };
    meter.observeToolUses({ file_search: 1 });
    meter.observe({ type: 'usage', usage: reported });
    expect(meter.finalUsage()).toEqual(reported);
  });

  it('a cut drain bills the uses reserved for, never fewer than were shown, within the reservation', () => {
    const meter = { estimatedPromptTokens: 1000, generatedTokens: 5, toolUsesSeenSoFar: { file_search: 12 } };
    const reserved = { file_search: 10, code_interpreter: 4 };
    const { usage, why } = cutOffEstimate(gpt, 3000, meter, 1_000, { toolUses: reserved });
    expect(usage.toolUses).toEqual({ file_search: 12, code_interpreter: 4 });
    expect(why).toContain('"code_interpreter":4');
    expect(
      costNanos(
        gpt,
        cutOffEstimate(gpt, 3000, { ...meter, toolUsesSeenSoFar: undefined }, 1_000, { toolUses: reserved }).usage,
      ),
    ).toBeLessThanOrEqual(maxCostNanos(gpt, 1000, 3000, { toolUses: reserved }));
    expect(
      cutOffEstimate(gpt, 3000, { estimatedPromptTokens: 1000, generatedTokens: 5 }, 1_000).usage,
    ).not.toHaveProperty('toolUses');
    // A tool this endpoint does not charge (Anthropic's code execution offered to GPT) is not one of its uses.
    expect(
      cutOffEstimate(gpt, 3000, { estimatedPromptTokens: 1000, generatedTokens: 5 }, 1_000, {
        toolUses: { code_execution: 1 },
      }).usage,
    ).not.toHaveProperty('toolUses');
  });
});
