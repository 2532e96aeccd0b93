import { describe, expect, it } from 'vitest';
import { effortForBudget, mapReasoning, snapEffort } from '../../../src/providers/openai-compatible/map-reasoning.js';
import { resolveVendorProfile, VENDOR_PROFILES } from '../../../src/providers/openai-compatible/vendors.js';

describe('effortForBudget', () => {
  it('relates the budget to the output cap when there is one', () => {
    expect(effortForBudget(1000, 10000)).toBe('minimal');
    expect(effortForBudget(5000, 10000)).toBe('medium');
    expect(effortForBudget(8500, 10000)).toBe('high');
    expect(effortForBudget(9900, 10000)).toBe('xhigh');
  });

  it('uses absolute thresholds without a cap', () => {
    expect(effortForBudget(512, undefined)).toBe('minimal');
    expect(effortForBudget(4096, undefined)).toBe('low');
    expect(effortForBudget(12000, undefined)).toBe('medium');
    expect(effortForBudget(32000, undefined)).toBe('high');
    expect(effortForBudget(64000, undefined)).toBe('xhigh');
  });
});

describe('snapEffort', () => {
  it('picks the nearest accepted level, the higher one on ties, never "none"', () => {
    expect(snapEffort('medium', ['low', 'high'])).toBe('high');
    expect(snapEffort('minimal', ['none', 'low', 'medium', 'high'])).toBe('low');
    expect(snapEffort('xhigh', ['none', 'minimal', 'low', 'medium', 'high'])).toBe('high');
    expect(snapEffort('low', ['none'])).toBeUndefined();
  });
});

describe('mapReasoning', () => {
  it('asks nothing when only exclude is set, or for vendors without a control', () => {
    expect(mapReasoning({ exclude: true }, VENDOR_PROFILES.openai, true, undefined)).toEqual({});
    expect(mapReasoning({ effort: 'high' }, VENDOR_PROFILES.mistral, true, undefined)).toEqual({});
  });

  it('OpenRouter gets its own reasoning object, by its field names, without what was not set', () => {
    expect(
      mapReasoning(
        { effort: 'low', budgetTokens: undefined, exclude: true },
        VENDOR_PROFILES.openrouter,
        true,
        undefined,
      ),
    ).toEqual({
      reasoning: { effort: 'low', exclude: true },
    });
    expect(mapReasoning({ budgetTokens: 2048, enabled: true }, VENDOR_PROFILES.openrouter, true, undefined)).toEqual({
      reasoning: { max_tokens: 2048, enabled: true },
    });
    // Adaptive thinking (a Messages client's) is "on, at the vendor's default" in OpenRouter's terms.
    expect(mapReasoning({ adaptive: true }, VENDOR_PROFILES.openrouter, true, undefined)).toEqual({
      reasoning: { enabled: true },
    });
  });

  it('a zero budget turns reasoning off', () => {
    expect(mapReasoning({ budgetTokens: 0 }, VENDOR_PROFILES.groq, true, undefined)).toEqual({
      reasoning_effort: 'none',
    });
  });
});

describe('resolveVendorProfile', () => {
  it('resolves aliases, falls back to generic and ignores mistyped quirks', () => {
    expect(resolveVendorProfile({ id: 'xai' }).id).toBe('x-ai');
    expect(resolveVendorProfile({ id: 'fireworks' }).id).toBe('generic');
    const p = resolveVendorProfile({
      id: 'openai',
      quirks: { streamOptions: 'no', efforts: ['low', 'bogus', 'high'] },
    });
    expect(p.streamOptions).toBe(true);
    expect(p.efforts).toEqual(['low', 'high']);
  });
});
