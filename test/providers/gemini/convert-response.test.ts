import { describe, expect, it } from 'vitest';
import {
  createGeminiAdapter,
  normalizeGeminiUsage,
  parseGeminiCompletion,
} from '../../../src/providers/gemini/index.js';
import { UpstreamPayloadError } from '../../../src/providers/upstream-payload-error.js';
import { completionView as view } from '../../helpers/stream-replay.js';
import { geminiContext, loadJson } from './helpers.js';

describe('parseCompletion: recorded Gemini responses', () => {
  it('plain text', () => {
    expect(parseGeminiCompletion(loadJson('text'))).toEqual({
      upstreamId: 'Xl2uaPX9D8ShnvgP3rGWsQk',
      output: [{ type: 'text', text: 'Hello! How can I help you today?' }],
      finishReason: 'stop',
      usage: { promptTokens: 8, completionTokens: 9, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it("a thought → reasoning text; the answer's signature → a record before the text; thinking and cache counted", () => {
    const raw = loadJson('reasoning') as {
      candidates: Array<{ content: { parts: Array<{ thoughtSignature?: string }> } }>;
    };
    expect(parseGeminiCompletion(raw)).toEqual({
      upstreamId: 'hW2uaNXkMYzFnvgPq_Ky6Qw',
      output: [
        {
          type: 'reasoning',
          text: "**Counting the letters**\n\nI need to count the r's in strawberry: s-t-r-a-w-b-e-r-r-y.",
        },
        {
          type: 'reasoning',
          data: raw.candidates[0].content.parts[1].thoughtSignature,
          format: 'google-gemini-v1',
          index: 0,
        },
        { type: 'text', text: 'There are 3 r\'s in "strawberry".' },
      ],
      finishReason: 'stop',
      // candidates 11 + thoughts 290; the 2048 cached tokens are part of the 2064 prompt tokens.
      usage: {
        promptTokens: 2064,
        completionTokens: 301,
        cachedTokens: 2048,
        cacheWriteTokens: 0,
        reasoningTokens: 290,
      },
    });
  });

  it('a function call → tool_calls with JSON-string arguments, a stable id and finish tool_calls', () => {
    const result = parseGeminiCompletion(loadJson('tool-call-gemini3'));
    const first = view(result);
    expect(result.finishReason).toBe('tool_calls');
    expect(first.content).toBeNull();
    expect(first.toolCalls).toEqual([
      {
        id: expect.stringMatching(/^call_[0-9a-f]{24}$/),
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Oslo","unit":"celsius"}' },
      },
    ]);
    expect(view(parseGeminiCompletion(loadJson('tool-call-gemini3'))).toolCalls).toEqual(first.toolCalls);
    expect(result.usage).toEqual({
      promptTokens: 61,
      completionTokens: 172,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 154,
    });
  });

  it('parallel calls get distinct ids; text before them is kept', () => {
    const reply = view(parseGeminiCompletion(loadJson('parallel-tool-calls')));
    expect(reply.content).toBe('Checking both cities.');
    expect(reply.toolCalls?.map((c) => c.function.arguments)).toEqual(['{"city":"Paris"}', '{"city":"Tokyo"}']);
    expect(new Set(reply.toolCalls?.map((c) => c.id)).size).toBe(2);
    expect(reply.reasoningDetails).toEqual([
      {
        type: 'reasoning.encrypted',
        data: expect.any(String),
        id: reply.toolCalls![0].id,
        format: 'google-gemini-v1',
        index: 0,
      },
    ]);
  });

  it('a vendor-supplied functionCall.id is used as is', () => {
    const reply = view(
      parseGeminiCompletion({
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { id: 'fc-7', name: 'f', args: {} } }] },
            finishReason: 'STOP',
          },
        ],
      }),
    );
    expect(reply.toolCalls?.[0].id).toBe('fc-7');
  });

  it('safety stops and blocked prompts are content_filter finishes', () => {
    expect(parseGeminiCompletion(loadJson('safety-finish'))).toMatchObject({
      output: [{ type: 'text', text: 'I can explain the general' }],
      finishReason: 'content_filter',
    });
    expect(parseGeminiCompletion(loadJson('prompt-blocked'))).toEqual({
      upstreamId: 'EXCPatOAKMrQjMcPteHVmQo',
      output: [],
      finishReason: 'content_filter',
      usage: { promptTokens: 9, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it('MAX_TOKENS spent on thinking → length with no content; a malformed call → error', () => {
    expect(parseGeminiCompletion(loadJson('max-tokens-thinking'))).toMatchObject({
      output: [],
      finishReason: 'length',
      usage: { promptTokens: 20, completionTokens: 100, reasoningTokens: 100 },
    });
    expect(parseGeminiCompletion(loadJson('malformed-function-call'))).toMatchObject({
      output: [],
      finishReason: 'error',
    });
  });

  it('an error object or an unusable body raises UpstreamPayloadError', () => {
    const embedded = () => parseGeminiCompletion(loadJson('error-429'));
    expect(embedded).toThrow(UpstreamPayloadError);
    try {
      embedded();
    } catch (err) {
      expect((err as UpstreamPayloadError).info).toMatchObject({
        status: 429,
        streamCode: 'rate_limit',
        retryAfterSeconds: 35,
      });
    }
    for (const body of [
      'not json',
      '[]',
      { candidates: [] },
      { candidates: [{ content: { parts: [{ functionCall: { args: {} } }] } }] },
    ]) {
      expect(() => parseGeminiCompletion(body)).toThrow(UpstreamPayloadError);
    }
    expect(view(parseGeminiCompletion(JSON.stringify(loadJson('text')))).content).toBe(
      'Hello! How can I help you today?',
    );
  });

  it('goes through the adapter with the provider id', () => {
    const adapter = createGeminiAdapter();
    expect(view(adapter.parseCompletion(loadJson('text'), geminiContext())).content).toBe(
      'Hello! How can I help you today?',
    );
  });
});

describe('normalizeGeminiUsage', () => {
  it('adds tool-use prompt tokens to the prompt and thoughts to the completion', () => {
    expect(
      normalizeGeminiUsage({
        promptTokenCount: 12,
        candidatesTokenCount: 60,
        toolUsePromptTokenCount: 65,
        thoughtsTokenCount: 82,
        totalTokenCount: 219,
      }),
    ).toEqual({
      promptTokens: 77,
      completionTokens: 142,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 82,
    });
    expect(normalizeGeminiUsage({ trafficType: 'ON_DEMAND' })).toBeUndefined();
    expect(normalizeGeminiUsage(null)).toBeUndefined();
  });
});
