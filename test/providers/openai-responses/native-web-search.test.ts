// OpenAI's hosted web_search tool is billed per call on top of the tokens, and the Responses usage object does not
// count the calls: the Response's `output` holds one `web_search_call` item per call (in a stream, each also comes in
// response.output_item.done). The native Responses lane reads them from recorded answers.
import { describe, expect, it } from 'vitest';
import { nativeResponses } from '../../../src/providers/openai-responses/native-responses.js';
import { webSearchCalls } from '../../../src/providers/openai-responses/responses-usage.js';
import { fixtureText, lastUsage, nativeContext, nativeReadings } from '../../helpers/native-replay.js';

const provider = {
  id: 'openai',
  kind: 'openai-compatible' as const,
  baseUrl: 'https://api.openai.com/v1',
  apiKey: 'sk-test-openai',
};
const ctx = nativeContext(provider, 'openai/gpt-5.4', 'gpt-5.4');
// native-responses-web-search: 8914 prompt tokens, 512 output (320 reasoning), two web_search_call items.
const BILLED = {
  promptTokens: 8914,
  completionTokens: 512,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 320,
  webSearchRequests: 2,
};

describe('OpenAI Responses web search calls', () => {
  it('counts each web_search_call once, whether the output or the stream showed it', () => {
    const call = (id?: string) => ({ type: 'web_search_call', status: 'completed', ...(id ? { id } : {}) });
    expect(webSearchCalls([call('ws_1'), { type: 'message' }, call('ws_2')])).toBe(2);
    expect(webSearchCalls([call('ws_1')], new Set(['ws_1', 'ws_0']))).toBe(2);
    expect(webSearchCalls([call(), call()])).toBe(2);
    expect(webSearchCalls(undefined)).toBe(0);
    expect(webSearchCalls([{ type: 'function_call', id: 'fc_1' }])).toBe(0);
  });

  it('JSON: the usage read from the Response carries its calls', () => {
    const answer = nativeResponses.readJson(
      Buffer.from(fixtureText('openai', 'native-responses-web-search.json')),
      ctx,
    );
    expect(answer.reading.usage).toEqual(BILLED);
  });

  it("stream: response.completed's usage carries the calls, each counted as its item is done", () => {
    const readings = nativeReadings(
      nativeResponses,
      ctx,
      fixtureText('openai', 'native-responses-web-search.chunks.txt'),
    );
    expect(lastUsage(readings)).toEqual(BILLED);
    expect(readings.flatMap((r) => (r.webSearches === undefined ? [] : [r.webSearches]))).toEqual([1, 2]);
  });

  it('stream: a response.completed without its output still bills the calls the stream showed', () => {
    const text = fixtureText('openai', 'native-responses-web-search.chunks.txt');
    const lastLine = text.trimEnd().split('\n').at(-1)!;
    const completed = JSON.parse(lastLine.slice('data: '.length));
    completed.response.output = [];
    const readings = nativeReadings(nativeResponses, ctx, text.replace(lastLine, `data: ${JSON.stringify(completed)}`));
    expect(lastUsage(readings)).toEqual(BILLED);
  });

  it('a stream cut before response.completed reports the calls it showed, for the estimate', () => {
    const readings = nativeReadings(
      nativeResponses,
      ctx,
      fixtureText('openai', 'native-responses-web-search.chunks.txt'),
      '"response.completed"',
    );
    expect(lastUsage(readings)).toBeUndefined();
    expect(Math.max(...readings.map((r) => r.webSearches ?? 0))).toBe(2);
    expect(readings.at(-1)!.error?.code).toBe('server_error');
  });
});
