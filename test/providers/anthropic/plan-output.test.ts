import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MIN_THINKING_BUDGET, planOutput, type OutputPlan } from '../../../src/providers/anthropic/index.js';
import type { GenerationRequest } from '../../../src/core/generation-request.js';
import { fromChat, type ChatCompletionRequest } from '../../helpers/chat-requests.js';

const request = (fields: Partial<ChatCompletionRequest>): GenerationRequest =>
  fromChat({ model: 'anthropic/m', messages: [], ...fields });
/** The thinking budget of a plan (adaptive thinking has none). */
const budgetOf = (plan: OutputPlan): number | undefined =>
  plan.thinking?.type === 'enabled' ? plan.thinking.budget_tokens : undefined;

describe('planOutput: max_tokens and the thinking budget', () => {
  it('without reasoning: the client cap (clamped to the model), else min(8192, model limit)', () => {
    expect(planOutput(request({}), 64000, true)).toEqual({ maxTokens: 8192 });
    expect(planOutput(request({}), 4096, true)).toEqual({ maxTokens: 4096 });
    expect(planOutput(request({}), undefined, true)).toEqual({ maxTokens: 8192 });
    expect(planOutput(request({ max_tokens: 300 }), 64000, true)).toEqual({ maxTokens: 300 });
    expect(planOutput(request({ max_tokens: 300, max_completion_tokens: 500 }), 64000, true)).toEqual({
      maxTokens: 500,
    });
    expect(planOutput(request({ max_tokens: 200_000 }), 64000, true)).toEqual({ maxTokens: 64000 });
  });

  it('effort levels take their share of the client cap, at least 1024', () => {
    const plan = (effort: NonNullable<ChatCompletionRequest['reasoning']>['effort']) =>
      budgetOf(planOutput(request({ max_tokens: 20000, reasoning: { effort } }), 64000, true));
    expect(plan('minimal')).toBe(2000);
    expect(plan('low')).toBe(4000);
    expect(plan('medium')).toBe(10000);
    expect(plan('high')).toBe(16000);
    expect(plan('xhigh')).toBe(19000);
    expect(budgetOf(planOutput(request({ max_tokens: 3000, reasoning: { effort: 'minimal' } }), 64000, true))).toBe(
      1024,
    );
  });

  it('reasoning.max_tokens is the budget, shrunk below a client cap, and wins over effort', () => {
    expect(
      planOutput(request({ max_tokens: 20000, reasoning: { max_tokens: 5000, effort: 'high' } }), 64000, true),
    ).toEqual({
      maxTokens: 20000,
      thinking: { type: 'enabled', budget_tokens: 5000 },
    });
    expect(planOutput(request({ max_tokens: 4000, reasoning: { max_tokens: 9000 } }), 64000, true)).toEqual({
      maxTokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 3999 },
    });
    expect(budgetOf(planOutput(request({ max_tokens: 2000, reasoning: { max_tokens: 500 } }), 64000, true))).toBe(1024);
  });

  it('a client cap too small for the 1024 minimum leaves thinking off rather than raising the cap', () => {
    expect(planOutput(request({ max_tokens: 1024, reasoning: { effort: 'high' } }), 64000, true)).toEqual({
      maxTokens: 1024,
    });
    expect(planOutput(request({ max_tokens: 1025, reasoning: { effort: 'high' } }), 64000, true)).toEqual({
      maxTokens: 1025,
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
  });

  it('without a client cap, a large budget gets the default answer room on top, within the model limit', () => {
    expect(planOutput(request({ reasoning: { max_tokens: 20000 } }), 64000, true)).toEqual({
      maxTokens: 28192,
      thinking: { type: 'enabled', budget_tokens: 20000 },
    });
    expect(planOutput(request({ reasoning: { max_tokens: 60000 } }), 64000, true)).toEqual({
      maxTokens: 64000,
      thinking: { type: 'enabled', budget_tokens: 60000 },
    });
    expect(planOutput(request({ reasoning: { max_tokens: 90000 } }), 64000, true)).toEqual({
      maxTokens: 64000,
      thinking: { type: 'enabled', budget_tokens: 63999 },
    });
    expect(planOutput(request({ reasoning: { enabled: true } }), 64000, true)).toEqual({
      maxTokens: 8192,
      thinking: { type: 'enabled', budget_tokens: 4096 },
    });
  });

  it("adaptive thinking (a Messages client's own choice): no budget, the effort as output_config, the client cap as sent", () => {
    const adaptive = (reasoning: GenerationRequest['reasoning'], maxOutputTokens?: number) =>
      planOutput({ maxOutputTokens, reasoning }, 64000, true);
    expect(adaptive({ adaptive: true }, 32000)).toEqual({ maxTokens: 32000, thinking: { type: 'adaptive' } });
    expect(adaptive({ adaptive: true, effort: 'xhigh' })).toEqual({
      maxTokens: 8192,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'max' },
    });
    expect(adaptive({ adaptive: true, effort: 'low' }, 500)).toEqual({
      maxTokens: 500,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'low' },
    });
    expect(adaptive({ adaptive: true, effort: 'none' }, 500)).toEqual({ maxTokens: 500 });
    expect(planOutput({ maxOutputTokens: 500, reasoning: { adaptive: true } }, 64000, false)).toEqual({
      maxTokens: 500,
    });
  });

  it('thinking not allowed (model or request) → never a thinking block', () => {
    expect(planOutput(request({ reasoning: { effort: 'high' } }), 64000, false)).toEqual({ maxTokens: 8192 });
  });

  it('property: whenever thinking is on, 1024 ≤ budget < max_tokens ≤ model limit, and a client cap is never raised', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
        fc.option(
          fc.constantFrom('minimal', 'low', 'medium', 'high', 'xhigh', 'none') as fc.Arbitrary<
            'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'none'
          >,
          { nil: undefined },
        ),
        fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
        (cap, budget, effort, limit) => {
          const plan = planOutput(request({ max_tokens: cap, reasoning: { max_tokens: budget, effort } }), limit, true);
          if (limit !== undefined) expect(plan.maxTokens).toBeLessThanOrEqual(limit);
          if (cap !== undefined) expect(plan.maxTokens).toBeLessThanOrEqual(cap);
          expect(plan.maxTokens).toBeGreaterThanOrEqual(1);
          const thinkingBudget = budgetOf(plan);
          if (plan.thinking) {
            expect(thinkingBudget).toBeGreaterThanOrEqual(MIN_THINKING_BUDGET);
            expect(thinkingBudget).toBeLessThan(plan.maxTokens);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
