// What the meter bills for web searches when the vendor's usage never arrived (a stream cut short): the searches the
// answer showed, never a count the vendor's own report replaces; a failed attempt's searches are forgotten.
import { describe, expect, it } from 'vitest';
import { GenerationMeter } from '../../src/pipeline/generation-meter.js';

const search = {
  type: 'web-search' as const,
  search: { id: 'ws_1', status: 'completed' as const, queries: ['q'], sources: [] },
};
const reported = {
  promptTokens: 10,
  completionTokens: 5,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  webSearchRequests: 3,
};

describe('GenerationMeter web searches', () => {
  it("an estimate counts the searches shown (translated events, native readers' running count)", () => {
    const meter = new GenerationMeter(100);
    meter.observe(search);
    meter.observe(search);
    expect(meter.finalUsage()).toMatchObject({ promptTokens: 100, webSearchRequests: 2 });
    meter.observeWebSearches(5);
    meter.observeWebSearches(4);
    expect(meter.finalUsage().webSearchRequests).toBe(5);
    expect(new GenerationMeter(100).finalUsage()).not.toHaveProperty('webSearchRequests');
  });

  it("the vendor's usage, once reported, is what is billed", () => {
    const meter = new GenerationMeter(100);
    meter.observeWebSearches(1);
    meter.observe({ type: 'usage', usage: reported });
    expect(meter.finalUsage()).toEqual(reported);
  });

  it("a failed attempt's searches are not billed to the next", () => {
    const meter = new GenerationMeter(100);
    meter.observeWebSearches(2);
    meter.resetAttempt();
    expect(meter.finalUsage()).not.toHaveProperty('webSearchRequests');
  });
});
