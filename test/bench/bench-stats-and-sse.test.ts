// The benchmark's own arithmetic and parsing: if these are wrong, every reported figure is wrong.
import { describe, it, expect } from 'vitest';
import { percentile, median, linearSlope } from '../../bench/lib/stats.js';
import { SseEventSplitter, chunkContent } from '../../bench/lib/sse-events.js';
import { probePace, probeMarker, readStamp, stamp, tailFrames, completionJson, contentFrame } from '../../bench/mock-replies.js';

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
    expect(JSON.parse(withUsage[1].slice(6)).usage).toEqual({ prompt_tokens: 10, completion_tokens: 18, total_tokens: 28 });
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
