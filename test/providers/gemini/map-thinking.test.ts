import { describe, expect, it } from 'vitest';
import { fromChat, type ChatCompletionRequest } from '../../helpers/chat-requests.js';
import type { ReasoningRequest } from '../../../src/core/generation-request.js';
import { buildBody, mapThinking } from '../../../src/providers/gemini/index.js';
import { geminiContext } from './helpers.js';

const think = (reasoning: ReasoningRequest | undefined, model: string, cap: number | undefined = 65536) =>
  mapThinking(reasoning, model, true, cap);

describe('mapThinking', () => {
  it('asks for thoughts by default on reasoning models and never on others', () => {
    expect(think(undefined, 'gemini-2.5-flash')).toEqual({ includeThoughts: true });
    expect(think(undefined, 'gemini-3.1-pro-preview')).toEqual({ includeThoughts: true });
    expect(think(undefined, 'gemma-4-26b-a4b-it')).toEqual({ includeThoughts: true });
    expect(mapThinking({ effort: 'high' }, 'gemini-2.5-flash', false, 1000)).toBeUndefined();
  });

  it('Gemini 3 takes levels, snapped to what the tier accepts (ties go up)', () => {
    expect(think({ effort: 'minimal' }, 'gemini-3.5-flash')).toEqual({
      thinkingLevel: 'minimal',
      includeThoughts: true,
    });
    expect(think({ effort: 'medium' }, 'gemini-3.5-flash')).toEqual({ thinkingLevel: 'medium', includeThoughts: true });
    expect(think({ effort: 'xhigh' }, 'gemini-3.5-flash')).toEqual({ thinkingLevel: 'high', includeThoughts: true });
    // 3 Pro: low/high only; 3.1 Pro adds medium; neither has minimal.
    expect(think({ effort: 'minimal' }, 'gemini-3-pro-preview')).toEqual({
      thinkingLevel: 'low',
      includeThoughts: true,
    });
    expect(think({ effort: 'medium' }, 'gemini-3-pro-preview')).toEqual({
      thinkingLevel: 'high',
      includeThoughts: true,
    });
    expect(think({ effort: 'medium' }, 'gemini-3.1-pro-preview')).toEqual({
      thinkingLevel: 'medium',
      includeThoughts: true,
    });
  });

  it('Gemini 3 cannot turn thinking off: the lowest level, and no thoughts returned', () => {
    expect(think({ enabled: false }, 'gemini-3.5-flash')).toEqual({ thinkingLevel: 'minimal', includeThoughts: false });
    expect(think({ effort: 'none' }, 'gemini-3.1-pro-preview')).toEqual({
      thinkingLevel: 'low',
      includeThoughts: false,
    });
  });

  it('Gemini 3 budgets become levels', () => {
    expect(think({ budgetTokens: 512 }, 'gemini-3.5-flash')).toMatchObject({ thinkingLevel: 'minimal' });
    expect(think({ budgetTokens: 4000 }, 'gemini-3.5-flash')).toMatchObject({ thinkingLevel: 'low' });
    expect(think({ budgetTokens: 10000 }, 'gemini-3.5-flash')).toMatchObject({ thinkingLevel: 'medium' });
    expect(think({ budgetTokens: 30000 }, 'gemini-3-pro-preview')).toMatchObject({ thinkingLevel: 'high' });
  });

  it('Gemini 2.5 takes budgets: a share of the output cap per effort, clamped to the tier range', () => {
    expect(think({ effort: 'low' }, 'gemini-2.5-flash', 10000)).toEqual({
      thinkingBudget: 2000,
      includeThoughts: true,
    });
    expect(think({ effort: 'high' }, 'gemini-2.5-pro', 65536)).toEqual({
      thinkingBudget: 32768,
      includeThoughts: true,
    });
    expect(think({ effort: 'minimal' }, 'gemini-2.5-flash-lite', 1000)).toEqual({
      thinkingBudget: 512,
      includeThoughts: true,
    });
    expect(think({ budgetTokens: 50 }, 'gemini-2.5-pro')).toEqual({ thinkingBudget: 128, includeThoughts: true });
    expect(think({ budgetTokens: 8000, exclude: true }, 'gemini-2.5-flash')).toEqual({
      thinkingBudget: 8000,
      includeThoughts: false,
    });
  });

  it('Gemini 2.5: off is budget 0 where allowed; Pro cannot turn off and gets its minimum', () => {
    expect(think({ enabled: false }, 'gemini-2.5-flash')).toEqual({ thinkingBudget: 0, includeThoughts: false });
    expect(think({ budgetTokens: 0 }, 'gemini-2.5-flash-lite')).toEqual({ thinkingBudget: 0, includeThoughts: false });
    expect(think({ effort: 'none' }, 'gemini-2.5-pro')).toEqual({ thinkingBudget: 128, includeThoughts: false });
  });

  it('models without documented controls (Gemma) only say whether thoughts come back', () => {
    expect(think({ effort: 'high' }, 'gemma-4-26b-a4b-it')).toEqual({ includeThoughts: true });
    expect(think({ enabled: false }, 'gemma-4-26b-a4b-it')).toBeUndefined();
  });

  it('lands in generationConfig next to the output cap it was computed from', () => {
    const request = {
      model: 'google/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 4000,
      reasoning: { effort: 'medium' },
    } as ChatCompletionRequest;
    const body = buildBody(fromChat(request), geminiContext({ supportsReasoning: true, maxOutputTokens: 65536 }));
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 4000,
      thinkingConfig: { thinkingBudget: 2000, includeThoughts: true },
    });
  });
});
