// Google Search grounding (a web search a Responses or chat client asked for, sent as `googleSearch`): a recorded
// stream's groundingMetadata is one web search, with its queries and pages, after the answer's text.
import { describe, expect, it } from 'vitest';
import { createGeminiStreamTranslator, parseGeminiCompletion } from '../../../src/providers/gemini/index.js';
import { loadChunks, replay } from '../../helpers/stream-replay.js';

const SEARCH = {
  id: 'hZ1aaPq2Lb-ej8oPz6XR8AQ_search',
  status: 'completed',
  queries: ['UEFA Euro 2024 winner', 'who won euro 2024'],
  sources: [
    { url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AWQVqAL1', title: 'aljazeera.com' },
    { url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AWQVqAL2', title: 'uefa.com' },
  ],
};

describe('Gemini Google Search grounding', () => {
  it('stream: the text, then one web-search event, then the finish', () => {
    const events = replay(loadChunks('gemini', 'google-search'), createGeminiStreamTranslator());
    expect(events.map((e) => e.type)).toEqual([
      'upstream-id',
      'text-delta',
      'text-delta',
      'web-search',
      'finish',
      'usage',
    ]);
    expect(events.find((e) => e.type === 'web-search')).toEqual({ type: 'web-search', search: SEARCH });
  });

  it('whole reply: a web_search block after the text; a candidate without grounding has none', () => {
    const result = parseGeminiCompletion({
      responseId: 'hZ1aaPq2Lb-ej8oPz6XR8AQ',
      candidates: [
        {
          index: 0,
          finishReason: 'STOP',
          content: { role: 'model', parts: [{ text: 'Spain won.' }] },
          groundingMetadata: {
            webSearchQueries: SEARCH.queries,
            groundingChunks: SEARCH.sources.map((s) => ({ web: { uri: s.url, title: s.title } })),
          },
        },
      ],
    });
    expect(result.output).toEqual([
      { type: 'text', text: 'Spain won.' },
      { type: 'web_search', ...SEARCH },
    ]);
    const plain = parseGeminiCompletion({
      candidates: [
        { index: 0, finishReason: 'STOP', content: { role: 'model', parts: [{ text: 'x' }] }, groundingMetadata: {} },
      ],
    });
    expect(plain.output).toEqual([{ type: 'text', text: 'x' }]);
  });
});
