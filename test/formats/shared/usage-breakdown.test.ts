import { describe, expect, it } from 'vitest';
import { usageBreakdown } from '../../../src/formats/shared/usage-breakdown.js';

describe('usageBreakdown', () => {
  it('takes cache reads and writes out of the uncached input, keeps them in the total input', () => {
    expect(
      usageBreakdown({
        promptTokens: 1000,
        completionTokens: 50,
        cachedTokens: 600,
        cacheWriteTokens: 300,
        reasoningTokens: 20,
      }),
    ).toEqual({
      uncachedInputTokens: 100,
      cacheReadTokens: 600,
      cacheWriteTokens: 300,
      cacheWrite1hTokens: 0,
      inputTokens: 1000,
      outputTokens: 50,
      reasoningTokens: 20,
      totalTokens: 1050,
    });
  });

  it('splits the cache writes by lifetime, the 1-hour part never above the total', () => {
    const usage = {
      promptTokens: 1000,
      completionTokens: 1,
      cachedTokens: 0,
      cacheWriteTokens: 300,
      reasoningTokens: 0,
    };
    expect(usageBreakdown({ ...usage, cacheWrite1hTokens: 200 }).cacheWrite1hTokens).toBe(200);
    expect(usageBreakdown({ ...usage, cacheWrite1hTokens: 900 }).cacheWrite1hTokens).toBe(300);
  });

  it('never reports a negative uncached count when a provider reports more cached tokens than prompt tokens', () => {
    expect(
      usageBreakdown({
        promptTokens: 10,
        completionTokens: 1,
        cachedTokens: 20,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      }).uncachedInputTokens,
    ).toBe(0);
  });
});
