import { describe, expect, it } from 'vitest';
import {
  createOpenAICompatibleAdapter,
  mapFinishReason,
  normalizeUsage,
  parseCompletion,
  UpstreamPayloadError,
} from '../../../src/providers/openai-compatible/index.js';
import { completionView as view, context, loadJson } from '../../helpers/stream-replay.js';

describe('parseCompletion: recorded vendor bodies', () => {
  it('OpenAI plain text', () => {
    expect(parseCompletion(loadJson('openai', 'text'))).toEqual({
      upstreamId: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      output: [{ type: 'text', text: 'Hello! How can I assist you today?' }],
      finishReason: 'stop',
      usage: { promptTokens: 19, completionTokens: 10, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it('OpenAI single tool call', () => {
    expect(parseCompletion(loadJson('openai', 'tool-call'))).toEqual({
      upstreamId: 'chatcmpl-abc123',
      output: [
        {
          type: 'tool_call',
          id: 'call_abc123',
          name: 'get_current_weather',
          kind: 'function',
          input: '{\n"location": "Boston, MA"\n}',
        },
      ],
      finishReason: 'tool_calls',
      usage: { promptTokens: 82, completionTokens: 17, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it('OpenAI parallel tool calls keep order and ids', () => {
    const completion = parseCompletion(loadJson('openai', 'parallel-tool-calls'));
    expect(completion.output).toEqual([
      {
        type: 'tool_call',
        id: 'call_Ug4Y3X7oQ0fWc2sZP1rT8e9A',
        name: 'get_weather',
        kind: 'function',
        input: '{"city":"Oslo"}',
      },
      {
        type: 'tool_call',
        id: 'call_c7Hk2NqL5vR0mB3xD9sW4yJz',
        name: 'get_weather',
        kind: 'function',
        input: '{"city":"Tokyo"}',
      },
    ]);
    expect(completion.finishReason).toBe('tool_calls');
  });

  it('OpenAI image request reply', () => {
    const completion = parseCompletion(loadJson('openai', 'image-request'));
    expect(view(completion).content).toMatch(/^The image shows a wooden boardwalk/);
    expect(completion.usage?.promptTokens).toBe(1117);
  });

  it('OpenAI cached prompt tokens and reasoning tokens', () => {
    expect(parseCompletion(loadJson('openai', 'cached-tokens')).usage).toEqual({
      promptTokens: 2006,
      completionTokens: 300,
      cachedTokens: 1920,
      cacheWriteTokens: 0,
      reasoningTokens: 256,
    });
  });

  it('DeepSeek reasoning_content and cache hits', () => {
    expect(parseCompletion(loadJson('deepseek', 'reasoning'))).toEqual({
      upstreamId: '5f0e7a8c-3b1d-4c2e-9f6a-8d7b6c5e4a3f',
      output: [
        {
          type: 'reasoning',
          text: 'Compare 9.11 and 9.8. Write them with the same number of decimals: 9.11 and 9.80. 0.80 > 0.11, so 9.8 is larger.',
        },
        { type: 'text', text: '9.11 is smaller than 9.8, so 9.8 is greater.' },
      ],
      finishReason: 'stop',
      usage: {
        promptTokens: 1280,
        completionTokens: 215,
        cachedTokens: 1024,
        cacheWriteTokens: 0,
        reasoningTokens: 180,
      },
    });
    // Older DeepSeek bodies carry cache hits only at the top level.
    expect(parseCompletion(loadJson('deepseek', 'cache-hit-only')).usage?.cachedTokens).toBe(3840);
  });

  it('OpenRouter reasoning: its reasoning_details as records, field for field (and back unmodified), cache writes', () => {
    const body = loadJson('openrouter', 'reasoning') as { choices: Array<{ message: { reasoning_details: unknown } }> };
    const completion = parseCompletion(body);
    expect(view(completion).reasoning).toBe(
      'Count the letters: s-t-r-a-w-b-e-r-r-y. r appears at positions 3, 8 and 9.',
    );
    expect(view(completion).reasoningDetails).toEqual(body.choices[0].message.reasoning_details);
    expect(completion.usage).toEqual({
      promptTokens: 3120,
      completionTokens: 96,
      cachedTokens: 2048,
      cacheWriteTokens: 512,
      reasoningTokens: 58,
    });
    expect(completion.upstreamId).toBe('gen-1751900000-Jx3nP0qLr8sT2vW4yZ6b');
  });

  it('is reachable through the adapter object', () => {
    const adapter = createOpenAICompatibleAdapter();
    expect(view(adapter.parseCompletion(loadJson('openai', 'text'), context({ id: 'openai' }))).content).toBe(
      'Hello! How can I assist you today?',
    );
  });
});

describe('parseCompletion: defensive parsing', () => {
  it.each([
    ['a non-object', 42],
    ['a non-JSON string', '<html>oops</html>'],
    ['no choices', { id: 'x', choices: [] }],
    ['a choice without message', { choices: [{ index: 0, finish_reason: 'stop' }] }],
    [
      'a tool call without name',
      { choices: [{ index: 0, message: { content: null, tool_calls: [{ id: 'c', function: {} }] } }] },
    ],
  ])('throws a 502 UpstreamPayloadError for %s', (_label, body) => {
    try {
      parseCompletion(body);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UpstreamPayloadError);
      expect((error as UpstreamPayloadError).info).toMatchObject({ status: 502, streamCode: 'server_error' });
    }
  });

  it('maps an error object returned with HTTP 200', () => {
    const error = (() => {
      try {
        parseCompletion({ error: { code: 429, message: 'Rate limited upstream' } });
      } catch (e) {
        return e as UpstreamPayloadError;
      }
      return undefined;
    })();
    expect(error?.info).toMatchObject({ status: 429, streamCode: 'rate_limit' });
  });

  it('accepts a JSON string body, Mistral thinking chunks and object arguments', () => {
    const completion = parseCompletion(
      JSON.stringify({
        id: 'm1',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: {
              role: 'assistant',
              content: [
                { type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] },
                { type: 'text', text: 'answer' },
              ],
              tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }],
            },
          },
        ],
      }),
    );
    expect(completion).toMatchObject({
      output: [
        { type: 'reasoning', text: 'hmm' },
        { type: 'text', text: 'answer' },
        { type: 'tool_call', id: 'call_0', name: 'f', kind: 'function', input: '{"a":1}' },
      ],
      finishReason: 'tool_calls',
    });
  });
});

describe('mapFinishReason', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool_calls'],
    ['function_call', 'tool_calls'],
    ['content_filter', 'content_filter'],
    ['error', 'error'],
    ['model_length', 'length'],
    ['STOP', 'stop'],
    ['something_new', 'stop'],
    [null, 'stop'],
  ])('%s → %s', (input, expected) => {
    expect(mapFinishReason(input)).toBe(expected);
  });

  it('upgrades stop to tool_calls when tool calls are present', () => {
    expect(mapFinishReason('stop', true)).toBe('tool_calls');
    expect(mapFinishReason('length', true)).toBe('length');
  });
});

describe('normalizeUsage', () => {
  it('adds reasoning to completion when the vendor counts it separately (xAI)', () => {
    expect(
      normalizeUsage({
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 115,
        completion_tokens_details: { reasoning_tokens: 100 },
      }),
    ).toEqual({ promptTokens: 10, completionTokens: 105, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 100 });
  });

  it('returns undefined without token counts', () => {
    expect(normalizeUsage(null)).toBeUndefined();
    expect(normalizeUsage({ cost: 1 })).toBeUndefined();
  });
});
