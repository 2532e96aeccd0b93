import { describe, expect, it } from 'vitest';
import { parseCompletion } from '../../../src/providers/anthropic/index.js';
import { UpstreamPayloadError } from '../../../src/providers/upstream-payload-error.js';
import { loadJson } from '../../helpers/stream-replay.js';

const fixture = (name: string) => loadJson('anthropic', name);
const usage = (prompt: number, completion: number, cached = 0, cacheWrite = 0) => ({
  promptTokens: prompt,
  completionTokens: completion,
  cachedTokens: cached,
  cacheWriteTokens: cacheWrite,
  reasoningTokens: 0,
});

describe('parseCompletion: recorded Anthropic messages', () => {
  it('text reply', () => {
    expect(parseCompletion(fixture('text'))).toEqual({
      upstreamId: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      output: [{ type: 'text', text: 'Hello! How can I help you today? é世😀' }],
      finishReason: 'stop',
      usage: usage(12, 16),
    });
  });

  it('text + tool_use → a text block and a tool call with JSON-text input', () => {
    expect(parseCompletion(JSON.stringify(fixture('tool-use')))).toEqual({
      upstreamId: 'msg_01Aq9w938a90dw8q',
      output: [
        { type: 'text', text: "I'll check the current weather in San Francisco for you." },
        {
          type: 'tool_call',
          id: 'toolu_01A09q90qw90lq917835lq9',
          name: 'get_weather',
          kind: 'function',
          input: '{"location":"San Francisco, CA","unit":"celsius"}',
        },
      ],
      finishReason: 'tool_calls',
      usage: usage(472, 89),
    });
  });

  it('parallel tool calls keep their order; an empty input becomes "{}"', () => {
    const result = parseCompletion(fixture('parallel-tool-use'));
    expect(result.output).toEqual([
      {
        type: 'tool_call',
        id: 'toolu_01Oslo7cW1Vb4iPq2fXwYz8K',
        name: 'get_weather',
        kind: 'function',
        input: '{"city":"Oslo"}',
      },
      { type: 'tool_call', id: 'toolu_01Tokyo9dR3Nm5kLs8aQpE2T', name: 'get_time', kind: 'function', input: '{}' },
    ]);
    expect(result.finishReason).toBe('tool_calls');
  });

  it('thinking → a signed reasoning record, then the text', () => {
    const result = parseCompletion(fixture('thinking'));
    expect(result.output).toEqual([
      {
        type: 'reasoning',
        text: 'Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3',
        signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+vA2fYR==',
        format: 'anthropic-claude-v1',
        index: 0,
      },
      { type: 'text', text: '27 * 453 = 12,231' },
    ]);
    expect(result.usage).toEqual(usage(46, 212));
  });

  it('thinking + redacted_thinking + tool_use: both reasoning records in order, then the call', () => {
    const result = parseCompletion(fixture('thinking-tool-use'));
    expect(result.output).toEqual([
      {
        type: 'reasoning',
        text: 'The user wants the weather in Paris. I should call get_weather.',
        signature: 'BDaL4VrbR2Oj0hO4XpJxT28J5TILnCrrUXoKiiNBZW9P+nr8XSj1zuZzAl4egiCCpQNvfyUuFFJP5CncdYZEQPPmLxYsNrcs==',
        format: 'anthropic-claude-v1',
        index: 0,
      },
      {
        type: 'reasoning',
        data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB8URj2pLmN0oQWjy==',
        format: 'anthropic-claude-v1',
        index: 1,
      },
      expect.objectContaining({ type: 'tool_call', name: 'get_weather', input: '{"location":"Paris"}' }),
    ]);
    expect(result.finishReason).toBe('tool_calls');
  });

  it("text with citations keeps them, each with its type, quoted text and the vendor's other fields", () => {
    const result = parseCompletion({
      id: 'msg_c',
      content: [
        {
          type: 'text',
          text: 'Revenue grew 12%.',
          citations: [
            {
              type: 'page_location',
              cited_text: 'Revenue grew 12% in Q3.',
              document_index: 0,
              document_title: 'Q3 report',
              start_page_number: 2,
              end_page_number: 3,
            },
          ],
        },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: 5, output_tokens: 2 },
    });
    expect(result.output).toEqual([
      {
        type: 'text',
        text: 'Revenue grew 12%.',
        citations: [
          {
            type: 'page_location',
            citedText: 'Revenue grew 12% in Q3.',
            fields: { document_index: 0, document_title: 'Q3 report', start_page_number: 2, end_page_number: 3 },
          },
        ],
      },
    ]);
  });

  it('cache reads and writes are part of promptTokens and reported separately', () => {
    expect(parseCompletion(fixture('cache-usage')).usage).toEqual(usage(21 + 188086 + 1024, 393, 1024, 188086));
  });

  it('carries the 1-hour part of the cache writes (usage.cache_creation), which is priced apart', () => {
    expect(parseCompletion(fixture('cache-1h')).usage).toEqual({
      ...usage(48 + 12000 + 2048, 120, 2048, 12000),
      cacheWrite1hTokens: 10000,
    });
  });

  it('max_tokens → length, refusal → content_filter', () => {
    expect(parseCompletion(fixture('max-tokens')).finishReason).toBe('length');
    const refusal = parseCompletion(fixture('refusal'));
    expect(refusal.finishReason).toBe('content_filter');
    expect(refusal.output).toEqual([{ type: 'text', text: 'I can' }]);
  });

  it('a web search is one web_search block; other server tools and unknown block types are skipped; other stop reasons map as documented', () => {
    const result = parseCompletion({
      id: 'msg_1',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: [
            { type: 'web_search_result', url: 'https://x.test/', title: 'X', encrypted_content: 'Ev0', page_age: null },
          ],
        },
        { type: 'server_tool_use', id: 'srvtoolu_2', name: 'web_fetch', input: { url: 'https://x.test/' } },
        { type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_2', content: {} },
        { type: 'a_future_block' },
        { type: 'text', text: 'Found it.' },
      ],
      stop_reason: 'pause_turn',
      usage: { input_tokens: 5, output_tokens: 2 },
    });
    expect(result).toEqual({
      upstreamId: 'msg_1',
      output: [
        {
          type: 'web_search',
          id: 'srvtoolu_1',
          status: 'completed',
          queries: ['x'],
          sources: [{ url: 'https://x.test/', title: 'X' }],
        },
        { type: 'text', text: 'Found it.' },
      ],
      finishReason: 'stop',
      usage: usage(5, 2),
    });
    const failed = parseCompletion({
      content: [
        {
          type: 'web_search_tool_result',
          tool_use_id: 's',
          content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
        },
      ],
      stop_reason: 'end_turn',
    });
    expect(failed.output).toEqual([{ type: 'web_search', id: 's', status: 'failed', queries: [], sources: [] }]);
    expect(parseCompletion({ content: [], stop_reason: 'model_context_window_exceeded' }).finishReason).toBe('length');
    expect(parseCompletion({ content: [], stop_reason: 'stop_sequence' }).finishReason).toBe('stop');
  });

  it('rejects bodies that are not a Message, mapping an embedded error like an HTTP one', () => {
    expect(() => parseCompletion('not json')).toThrow(UpstreamPayloadError);
    expect(() => parseCompletion({ id: 'msg_1' })).toThrow(/no content array/);
    expect(() => parseCompletion({ content: [{ type: 'tool_use', input: {} }] })).toThrow(/no id or name/);
    try {
      parseCompletion(fixture('error-529'));
      expect.unreachable();
    } catch (err) {
      expect((err as UpstreamPayloadError).info).toMatchObject({ status: 503, upstreamCode: 'overloaded_error' });
    }
  });
});
