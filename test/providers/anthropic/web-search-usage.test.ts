// Anthropic's web search server tool is billed per search on top of the tokens, and Anthropic reports the count in
// `usage.server_tool_use.web_search_requests` (the Message's, or message_delta's cumulative usage in a stream). Both
// lanes read it from recorded answers: the translated lane (parseCompletion, the stream translator) and the native
// Messages lane (its JSON reader and stream reader). Web fetch requests are free beyond tokens and not counted.
import { describe, expect, it } from 'vitest';
import {
  createStreamTranslator,
  normalizeUsage,
  parseCompletion,
  readUsage,
} from '../../../src/providers/anthropic/index.js';
import { nativeMessages } from '../../../src/providers/anthropic/native-messages.js';
import { loadChunks, loadJson, replay } from '../../helpers/stream-replay.js';
import { fixtureText, lastUsage, nativeContext, nativeReadings } from '../../helpers/native-replay.js';
import { anthropicContext } from './anthropic-context.js';

// web-search: 10240 uncached + 2048 cache-read prompt tokens, 410 output tokens, two searches.
const BILLED = {
  promptTokens: 10240 + 2048,
  completionTokens: 410,
  cachedTokens: 2048,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  webSearchRequests: 2,
};
const ctx = nativeContext(anthropicContext().provider, 'anthropic/claude-sonnet-5-5', 'claude-sonnet-5-5');

describe('Anthropic web search requests', () => {
  it('are read from server_tool_use; web fetches and an absent object count nothing', () => {
    expect(
      readUsage({
        input_tokens: 5,
        output_tokens: 1,
        server_tool_use: { web_search_requests: 3, web_fetch_requests: 4 },
      }).webSearchRequests,
    ).toBe(3);
    expect(
      normalizeUsage(
        readUsage({
          input_tokens: 5,
          output_tokens: 1,
          server_tool_use: { web_search_requests: 0, web_fetch_requests: 4 },
        }),
      ),
    ).not.toHaveProperty('webSearchRequests');
    expect(normalizeUsage(readUsage({ input_tokens: 5, output_tokens: 1, server_tool_use: null }))).not.toHaveProperty(
      'webSearchRequests',
    );
  });

  it("translated lane, JSON: the Message's count is in the usage", () => {
    expect(parseCompletion(loadJson('anthropic', 'web-search')).usage).toEqual(BILLED);
  });

  it("translated lane, stream: message_delta's cumulative count replaces message_start's zero", () => {
    const events = replay(loadChunks('anthropic', 'web-search'), createStreamTranslator({ providerId: 'anthropic' }));
    expect(events.filter((e) => e.type === 'usage')).toEqual([{ type: 'usage', usage: BILLED }]);
  });

  it('native lane, JSON: the reading carries the count', () => {
    const answer = nativeMessages.readJson(Buffer.from(fixtureText('anthropic', 'web-search.json')), ctx);
    expect(answer.reading.usage).toEqual(BILLED);
  });

  it("native lane, stream: message_delta's count is billed, and each web_search call is counted as it starts", () => {
    const readings = nativeReadings(nativeMessages, ctx, fixtureText('anthropic', 'web-search.chunks.txt'));
    expect(lastUsage(readings)).toEqual(BILLED);
    expect(readings.flatMap((r) => (r.webSearches === undefined ? [] : [r.webSearches]))).toEqual([1, 2]);
  });

  it('native lane, a stream cut before its final usage bills at least the searches it showed', () => {
    const readings = nativeReadings(
      nativeMessages,
      ctx,
      fixtureText('anthropic', 'web-search.chunks.txt'),
      '"message_delta"',
    );
    const end = readings.at(-1)!;
    expect(end.error?.code).toBe('server_error');
    // message_start's counts, with the two searches shown in place of its zero.
    expect(end.usage).toEqual({
      promptTokens: 2610 + 2048,
      completionTokens: 3,
      cachedTokens: 2048,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      webSearchRequests: 2,
    });
  });
});
