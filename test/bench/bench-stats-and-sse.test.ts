// The benchmark's own arithmetic and parsing: if these are wrong, every reported figure is wrong.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { percentile, median, medianInterval, linearSlope } from '../../bench/lib/stats.js';
import { SseEventSplitter, chunkContent } from '../../bench/lib/sse-events.js';
import {
  probePace,
  probeMarker,
  readStamp,
  stamp,
  tailFrames,
  completionJson,
  contentFrame,
} from '../../bench/mock-replies.js';

describe('stats', () => {
  it('uses nearest-rank percentiles, so p99 is an observed value', () => {
    const samples = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile(samples, 100)).toBe(100);
    expect(percentile([5, 1, 3], 50)).toBe(3);
    expect(percentile([], 50)).toBeUndefined();
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });

  it('takes the conventional median across repetitions', () => {
    expect(median([4, 1])).toBe(2.5);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([])).toBeUndefined();
  });

  it('bounds the median by order statistics at ≥ 95% confidence, from 6 samples', () => {
    const ranks = (n: number) => Array.from({ length: n }, (_, i) => n - i);
    // n = 6: only the extremes (1 - 2/64 = 96.9%); n = 12: 3rd to 10th (96.1%; 4th to 9th would be 85.4%);
    // n = 20: 6th to 15th (95.9%).
    expect(medianInterval(ranks(5))).toBeUndefined();
    expect(medianInterval(ranks(6))).toEqual([1, 6]);
    expect(medianInterval(ranks(12))).toEqual([3, 10]);
    expect(medianInterval(ranks(20))).toEqual([6, 15]);
    expect(medianInterval(ranks(12), 0.8)).toEqual([4, 9]);
  });

  it('gives an interval that holds the median and covers it as often as it claims', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.5, max: 1.5, noNaN: true }), { minLength: 6, maxLength: 40 }),
        (samples) => {
          const [low, high] = medianInterval(samples)!;
          const m = median(samples)!;
          return low <= m && m <= high;
        },
      ),
    );
    // Coverage, by simulation with a fixed generator: the interval contains the true median (0) of a symmetric
    // distribution in at least 95% of 2000 samples of 12.
    let seed = 42;
    const uniform = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31 - 0.5;
    };
    let covered = 0;
    for (let trial = 0; trial < 2000; trial++) {
      const [low, high] = medianInterval(Array.from({ length: 12 }, uniform))!;
      if (low <= 0 && 0 <= high) covered++;
    }
    expect(covered / 2000).toBeGreaterThanOrEqual(0.95);
    expect(covered / 2000).toBeLessThan(0.98);
  });

  it('fits a least-squares slope', () => {
    expect(linearSlope([0, 1, 2, 3], [10, 12, 14, 16])).toBeCloseTo(2);
    expect(linearSlope([0, 1, 2], [5, 5, 5])).toBe(0);
    expect(linearSlope([1, 1], [1, 2])).toBeUndefined();
  });
});

describe('SseEventSplitter', () => {
  it('returns events only once complete, across arbitrary read boundaries', () => {
    const splitter = new SseEventSplitter();
    expect(splitter.push('data: {"a"')).toEqual([]);
    expect(splitter.push(':1}\n')).toEqual([]);
    expect(splitter.push('\ndata: [DONE]\n\n')).toEqual(['{"a":1}', '[DONE]']);
    expect(splitter.pending).toBe('');
  });

  it('handles CRLF, multi-line data and comment-only keep-alives', () => {
    const splitter = new SseEventSplitter();
    expect(splitter.push(': keep-alive\r\n\r\ndata: one\r\ndata:two\r\n\r\n')).toEqual(['one\ntwo']);
  });

  it('reads the content of OpenAI-format chunks and ignores the rest', () => {
    expect(chunkContent(contentFrame('m', 'hi').slice(6).trim())).toBe('hi');
    expect(chunkContent('{"choices":[{"delta":{"role":"assistant","content":""}}]}')).toBeUndefined();
    expect(chunkContent('{"choices":[],"usage":{}}')).toBeUndefined();
    expect(chunkContent('[DONE]')).toBeUndefined();
  });
});

describe('mock replies', () => {
  it('recognises probe requests by the marker in the last message only', () => {
    expect(probePace({ messages: [{ content: 'x' }, { content: `hello ${probeMarker(3)}` }] })).toBe(3);
    expect(probePace({ messages: [{ content: probeMarker(3) }, { content: 'plain' }] })).toBeUndefined();
    expect(probePace({ messages: 'nope' })).toBeUndefined();
    expect(probePace(null)).toBeUndefined();
  });

  it('round-trips monotonic stamps through content text', () => {
    expect(readStamp(`word${stamp(123456789012345n)}`)).toBe(123456789012345n);
    expect(readStamp('word')).toBeUndefined();
  });

  it('ends streams with finish, usage only when asked, and [DONE]', () => {
    const withUsage = tailFrames('m', 10, true);
    expect(withUsage).toHaveLength(3);
    expect(JSON.parse(withUsage[1].slice(6)).usage).toEqual({
      prompt_tokens: 10,
      completion_tokens: 18,
      total_tokens: 28,
    });
    expect(tailFrames('m', 10, false).map((f) => f.includes('usage'))).toEqual([false, false]);
    expect(withUsage[withUsage.length - 1]).toBe('data: [DONE]\n\n');
  });

  it('answers a JSON completion with usage', () => {
    const body = JSON.parse(completionJson('gpt-x', 7));
    expect(body.model).toBe('gpt-x');
    expect(body.choices[0].message.content).toMatch(/^Hello there/);
    expect(body.usage.prompt_tokens).toBe(7);
  });
});
