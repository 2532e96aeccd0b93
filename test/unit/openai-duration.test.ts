// OpenAI's reset durations (x-ratelimit-reset-requests, x-ratelimit-reset-tokens) as its rate-limit guide shows them
// ("1s", "6m0s") and as its API sends them ("20ms", "59.5s"): Go's duration text, whole milliseconds.
import { describe, expect, it } from 'vitest';
import { openAiDuration } from '../../src/formats/shared/openai-duration.js';

/** Go's time.ParseDuration for the units OpenAI's headers use, so every text can be read back. */
function parseGoDuration(text: string): number {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)];
  expect(parts.map((p) => p[0]).join('')).toBe(text);
  const unit = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
  return Math.round(parts.reduce((ms, [, n, u]) => ms + Number(n) * unit[u as keyof typeof unit], 0));
}

describe('openAiDuration', () => {
  it.each([
    [1000, '1s'],
    [360_000, '6m0s'],
    [59_500, '59.5s'],
    [20, '20ms'],
    [12, '12ms'],
    [8640, '8.64s'],
    [30_000, '30s'],
    [60_000, '1m0s'],
    [61_250, '1m1.25s'],
    [3_600_000, '1h0m0s'],
    [3_725_005, '1h2m5.005s'],
    [0, '0s'],
  ])('%i ms is %s', (ms, text) => {
    expect(openAiDuration(ms)).toBe(text);
    expect(parseGoDuration(text)).toBe(ms);
  });

  it('rounds to a whole millisecond and never goes below zero', () => {
    expect(openAiDuration(1499.6)).toBe('1.5s');
    expect(openAiDuration(0.4)).toBe('0s');
    expect(openAiDuration(-5)).toBe('0s');
  });

  it('reads back as the milliseconds it was given, for every span up to a day', () => {
    for (let ms = 1; ms < 86_400_000; ms = Math.ceil(ms * 1.37) + 7)
      expect(parseGoDuration(openAiDuration(ms))).toBe(ms);
  });
});
