// How many web searches admission reserves for, read by each door from the request's own tools: the client's cap
// (Anthropic's max_uses, the Responses API's max_tool_calls) or a bounded default; 0 without a search tool.
import { describe, expect, it } from 'vitest';
import { messagesRequestFacts } from '../../src/formats/messages/request-facts.js';
import { responsesRequestFacts } from '../../src/formats/responses/request-facts.js';
import { geminiRequestFacts } from '../../src/formats/gemini/request-facts.js';
import { chatRequestFacts } from '../../src/formats/chat-completions/request-facts.js';
import { DEFAULT_RESERVED_WEB_SEARCHES, isWebSearchType } from '../../src/formats/shared/hosted-tools.js';

const user = [{ role: 'user' as const, content: 'Who won Euro 2024?' }];

describe('web searches reserved for', () => {
  it('names the hosted search tool types of both APIs, not web fetch', () => {
    for (const type of [
      'web_search',
      'web_search_preview',
      'web_search_2025_08_26',
      'web_search_preview_2025_03_11',
      'web_search_20250305',
      'web_search_20260209',
    ]) {
      expect(isWebSearchType(type), type).toBe(true);
    }
    for (const type of ['web_fetch_20250910', 'code_execution_20250825', 'function', 'web_searcher', undefined])
      expect(isWebSearchType(type), String(type)).toBe(false);
  });

  it("Messages: each search tool's max_uses, else the default; none without one", () => {
    const facts = (tools: unknown[]) =>
      messagesRequestFacts({ model: 'm', max_tokens: 100, messages: user, tools } as never, 'anthropic/m')
        .maxWebSearches;
    expect(facts([{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }])).toBe(3);
    expect(facts([{ type: 'web_search_20250305', name: 'web_search' }])).toBe(DEFAULT_RESERVED_WEB_SEARCHES);
    expect(
      facts([
        { type: 'web_fetch_20250910', name: 'web_fetch' },
        { name: 'get_weather', input_schema: { type: 'object' } },
      ]),
    ).toBeUndefined();
  });

  it('Responses: a web_search tool (or a Codex additional_tools item), bounded by max_tool_calls', () => {
    const facts = (body: Record<string, unknown>) =>
      responsesRequestFacts({ model: 'openai/m', input: 'Who won Euro 2024?', ...body } as never).maxWebSearches;
    expect(facts({ tools: [{ type: 'web_search' }] })).toBe(DEFAULT_RESERVED_WEB_SEARCHES);
    expect(facts({ tools: [{ type: 'web_search_preview' }], max_tool_calls: 2 })).toBe(2);
    expect(
      facts({
        input: [
          { type: 'additional_tools', tools: [{ type: 'web_search' }] },
          { role: 'user', content: 'hi' },
        ],
      }),
    ).toBe(DEFAULT_RESERVED_WEB_SEARCHES);
    expect(facts({ tools: [{ type: 'function', name: 'f', parameters: {} }] })).toBeUndefined();
  });

  it('Gemini: a Google Search tool; chat: web_search_options', () => {
    const gemini = (tools: unknown[]) =>
      geminiRequestFacts({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools } as never, 'google/m')
        .maxWebSearches;
    expect(gemini([{ googleSearch: {} }])).toBe(DEFAULT_RESERVED_WEB_SEARCHES);
    expect(gemini([{ google_search: {} }])).toBe(DEFAULT_RESERVED_WEB_SEARCHES);
    expect(gemini([{ codeExecution: {} }])).toBeUndefined();
    expect(chatRequestFacts({ model: 'm', messages: user, web_search_options: {} } as never).maxWebSearches).toBe(
      DEFAULT_RESERVED_WEB_SEARCHES,
    );
    expect(chatRequestFacts({ model: 'm', messages: user } as never).maxWebSearches).toBeUndefined();
  });
});
