// Google bills Grounding with Google Search on top of the tokens: Gemini 3 and later per search query the candidate's
// `groundingMetadata.webSearchQueries` lists, Gemini 2.5 per grounded prompt (one, however many queries). Both the
// translated lane (parseGeminiCompletion, the stream translator) and the native Gemini lane count that unit from
// recorded answers, into the usage that is billed.
import { describe, expect, it } from 'vitest';
import { createGeminiStreamTranslator, parseGeminiCompletion } from '../../../src/providers/gemini/index.js';
import { billedSearches } from '../../../src/providers/gemini/grounding.js';
import { nativeGemini } from '../../../src/providers/gemini/native-gemini.js';
import { loadChunks, loadJson, replay } from '../../helpers/stream-replay.js';
import { fixtureText, lastUsage, nativeContext, nativeReadings } from '../../helpers/native-replay.js';
import { geminiContext } from './helpers.js';

const provider = geminiContext().provider;
const grounded = (queries: unknown) => ({
  groundingMetadata: { webSearchQueries: queries, groundingChunks: [{ web: { uri: 'https://a.test', title: 'a' } }] },
});

describe('Gemini grounding: the searches Google bills', () => {
  it('Gemini 3 and later: one per query; Gemini 2.x: one per grounded prompt; none without queries', () => {
    expect(billedSearches(grounded(['a', 'b', 'c']), 'gemini-3.5-flash')).toBe(3);
    expect(billedSearches(grounded(['a', 'b', 'c']), 'gemini-3.1-pro-preview')).toBe(3);
    expect(billedSearches(grounded(['a', 'b', 'c']), 'gemini-2.5-flash')).toBe(1);
    expect(billedSearches(grounded(['a']), 'models/gemini-2.5-pro')).toBe(1);
    expect(billedSearches(grounded([]), 'gemini-2.5-pro')).toBe(0);
    expect(billedSearches(grounded(['', 7]), 'gemini-3.5-flash')).toBe(0);
    expect(billedSearches({ groundingMetadata: {} }, 'gemini-3.5-flash')).toBe(0);
    expect(billedSearches({}, 'gemini-3.5-flash')).toBe(0);
    expect(billedSearches(undefined, 'gemini-3.5-flash')).toBe(0);
  });

  it("translated lane, JSON: the recorded answer's three queries, or one grounded 2.5 prompt", () => {
    expect(parseGeminiCompletion(loadJson('gemini', 'google-search'), 'google', 'gemini-3.5-flash').usage).toEqual({
      promptTokens: 14 + 1204,
      completionTokens: 31 + 157,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 157,
      webSearchRequests: 3,
    });
    expect(
      parseGeminiCompletion(loadJson('gemini', 'google-search'), 'google', 'gemini-2.5-flash').usage?.webSearchRequests,
    ).toBe(1);
    expect(parseGeminiCompletion(loadJson('gemini', 'text'), 'google', 'gemini-3.5-flash').usage).not.toHaveProperty(
      'webSearchRequests',
    );
  });

  it("translated lane, stream: the grounding chunk's queries go out with the final usage", () => {
    const usageOf = (upstreamModel: string) =>
      replay(loadChunks('gemini', 'google-search'), createGeminiStreamTranslator({ upstreamModel })).filter(
        (e) => e.type === 'usage',
      );
    expect(usageOf('gemini-3-pro-preview')).toEqual([
      {
        type: 'usage',
        usage: {
          promptTokens: 112,
          completionTokens: 16,
          cachedTokens: 0,
          cacheWriteTokens: 0,
          reasoningTokens: 0,
          webSearchRequests: 2,
        },
      },
    ]);
    expect(usageOf('gemini-2.5-pro').map((e) => e.type === 'usage' && e.usage.webSearchRequests)).toEqual([1]);
  });

  it('native lane, JSON and stream: the usage read carries the searches', () => {
    const ctx = nativeContext(provider, 'google/gemini-3.5-flash', 'gemini-3.5-flash');
    expect(
      nativeGemini.readJson(Buffer.from(fixtureText('gemini', 'google-search.json')), ctx).reading.usage
        ?.webSearchRequests,
    ).toBe(3);
    const stream = nativeReadings(nativeGemini, ctx, fixtureText('gemini', 'google-search.chunks.txt'));
    expect(lastUsage(stream)).toEqual({
      promptTokens: 112,
      completionTokens: 16,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      webSearchRequests: 2,
    });
    const older = nativeContext(provider, 'google/gemini-2.5-flash', 'gemini-2.5-flash');
    expect(
      lastUsage(nativeReadings(nativeGemini, older, fixtureText('gemini', 'google-search.chunks.txt')))
        ?.webSearchRequests,
    ).toBe(1);
  });

  it('native lane: grounding on a chunk after the last usageMetadata still reaches the billed usage', () => {
    const ctx = nativeContext(provider, 'google/gemini-3.5-flash', 'gemini-3.5-flash');
    const chunks = [
      {
        candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'Spain won.' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3 },
      },
      { candidates: [{ index: 0, ...grounded(['euro 2024 winner', 'euro 2024 final']) }] },
    ];
    const text = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('');
    expect(lastUsage(nativeReadings(nativeGemini, ctx, text))).toEqual({
      promptTokens: 10,
      completionTokens: 3,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      webSearchRequests: 2,
    });
  });
});
