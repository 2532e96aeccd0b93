// Google bills Grounding with Google Maps per grounded prompt, on top of the tokens: the native Gemini lane counts one
// for an answer whose grounding holds a place (`groundingChunks[].maps`, or the Maps widget's context token), from
// recorded answers.
import { describe, expect, it } from 'vitest';
import { mapsGrounded } from '../../../src/providers/gemini/grounding.js';
import { nativeGemini } from '../../../src/providers/gemini/native-gemini.js';
import { fixtureText, lastUsage, nativeContext, nativeReadings } from '../../helpers/native-replay.js';
import { geminiContext } from './helpers.js';

const ctx = nativeContext(geminiContext().provider, 'google/gemini-2.5-flash', 'gemini-2.5-flash');
// maps-grounding: 18 prompt + 1380 tool-use prompt tokens, 42 + 96 thinking out, grounded on two places.
const BILLED = {
  promptTokens: 1398,
  completionTokens: 138,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 96,
  toolUses: { maps_grounding: 1 },
};

describe('Gemini grounding with Google Maps', () => {
  it('a candidate is grounded when a grounding chunk is a place, or the widget token is set', () => {
    expect(
      mapsGrounded({
        groundingMetadata: { groundingChunks: [{ maps: { uri: 'https://maps.google.com/?cid=1', title: 'a' } }] },
      }),
    ).toBe(true);
    expect(mapsGrounded({ groundingMetadata: { googleMapsWidgetContextToken: 'widgetcontent/x' } })).toBe(true);
    expect(
      mapsGrounded({ groundingMetadata: { groundingChunks: [{ web: { uri: 'https://a.test', title: 'a' } }] } }),
    ).toBe(false);
    expect(mapsGrounded({})).toBe(false);
    expect(mapsGrounded(undefined)).toBe(false);
  });

  it('JSON: one grounded prompt, whatever the number of places', () => {
    expect(nativeGemini.readJson(Buffer.from(fixtureText('gemini', 'maps-grounding.json')), ctx).reading.usage).toEqual(
      BILLED,
    );
  });

  it('stream: the grounding on the last chunk bills the prompt once', () => {
    const readings = nativeReadings(nativeGemini, ctx, fixtureText('gemini', 'maps-grounding.chunks.txt'));
    expect(lastUsage(readings)).toEqual(BILLED);
    expect(readings.flatMap((r) => (r.toolUses ? [r.toolUses] : []))).toEqual([{ maps_grounding: 1 }]);
  });
});
