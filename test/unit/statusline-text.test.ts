// The status line's text: the figures the sessions API gives, in plain digits whatever their size.
import { describe, expect, it } from 'vitest';
import { statusText } from '../../src/cli/statusline.js';

describe('modelgate statusline text', () => {
  it('prints spend, requests and the budget left as the API gives them', () => {
    const answer = { spend_usd: 0.0421, requests: 7, budget: { limit_usd: 2, remaining_usd: 1.9579 } };
    expect(statusText(answer)).toBe('$0.0421 · 7 requests · $1.9579 left of $2');
    expect(statusText({ spend_usd: 0, requests: 1, budget: null })).toBe('$0 · 1 request');
  });

  it('prints a tiny spend in plain digits, never in exponent form', () => {
    expect(statusText({ spend_usd: 1e-7, requests: 1, budget: null })).toBe('$0.0000001 · 1 request');
    expect(statusText({ spend_usd: 0.000000001, requests: 2, budget: null })).toBe('$0.000000001 · 2 requests');
  });
});
