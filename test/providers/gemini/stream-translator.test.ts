import { describe, expect, it } from 'vitest';
import {
  createGeminiAdapter,
  createGeminiStreamTranslator,
  parseGeminiCompletion,
} from '../../../src/providers/gemini/index.js';
import { collect, geminiContext, loadChunks, loadJson, replay } from './helpers.js';

const translator = () => createGeminiStreamTranslator({ providerId: 'google' });

describe('stream translator: recorded Gemini streams', () => {
  it('text: id, deltas, one finish, then the last usage', () => {
    const events = replay(loadChunks('text'), translator());
    expect(events).toEqual([
      { type: 'upstream-id', id: 'Ym2uaJ7QBtSmnvgPvM2B8Ag' },
      { type: 'text-delta', text: 'Hello! How can' },
      { type: 'text-delta', text: ' I help you today? é世😀' },
      { type: 'finish', finishReason: 'stop' },
      {
        type: 'usage',
        usage: { promptTokens: 8, completionTokens: 12, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
    ]);
  });

  it('gives the same events for every split of the bytes (multi-byte text and CRLF pairs included)', () => {
    const bytes = loadChunks('text');
    const whole = replay(bytes, translator());
    for (let cut = 1; cut < bytes.length; cut += 7) {
      expect(replay(bytes, translator(), [cut, cut + 1, cut + 2])).toEqual(whole);
    }
  });

  it('thoughts stream as reasoning, then the answer; the closing signature becomes a reasoning_details delta', () => {
    const events = replay(loadChunks('reasoning'), translator());
    const got = collect(events);
    expect(got.reasoning).toBe("**Counting the letters**\n\nI need to count the r's in strawberry.");
    expect(got.content).toBe('There are **3** r\'s in "strawberry".');
    expect(got.reasoningDetails).toEqual([
      { type: 'reasoning.encrypted', data: expect.stringMatching(/^EpQC/), format: 'google-gemini-v1', index: 0 },
    ]);
    expect(got.finishes).toEqual(['stop']);
    expect(got.usages).toEqual([
      { promptTokens: 12, completionTokens: 301, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 290 },
    ]);
    // Reasoning comes before content, as the vendor sent it.
    const firstContent = events.findIndex((e) => e.type === 'text-delta');
    const lastReasoning = events.map((e) => e.type === 'reasoning-delta').lastIndexOf(true);
    expect(lastReasoning).toBeLessThan(firstContent);
  });

  it("a Gemini 3 function call arrives whole: its signature's record, then one start with id, name and full input", () => {
    const events = replay(loadChunks('tool-call-gemini3'), translator());
    const json = parseGeminiCompletion(loadJson('tool-call-gemini3'));
    const [signature, call] = json.output.slice(-2);
    if (signature.type !== 'reasoning' || call.type !== 'tool_call') throw new Error('expected a signed call');
    const at = events.findIndex((e) => e.type === 'tool-call-start');
    expect(events[at]).toEqual({
      type: 'tool-call-start',
      index: 0,
      id: call.id,
      name: 'get_weather',
      kind: 'function',
      input: '{"city":"Oslo","unit":"celsius"}',
    });
    const { type: _type, ...state } = signature;
    expect(events[at - 1]).toEqual({ type: 'reasoning-state', state });
    expect(state.callId).toBe(call.id);
    const got = collect(events);
    expect(got.finishes).toEqual(['tool_calls']);
    expect(got.usages).toEqual([json.usage]);
  });

  it('parallel calls: indexes 0 and 1, text first', () => {
    const got = collect(replay(loadChunks('parallel-tool-calls'), translator()));
    expect(got.content).toBe('Checking both cities.');
    expect(got.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
      ['get_weather', '{"city":"Paris"}'],
      ['get_weather', '{"city":"Tokyo"}'],
    ]);
    expect(got.toolCalls.map((c) => c.id)).toEqual(
      parseGeminiCompletion(loadJson('parallel-tool-calls')).output.flatMap((b) =>
        b.type === 'tool_call' ? [b.id] : [],
      ),
    );
    expect(got.finishes).toEqual(['tool_calls']);
  });

  it('a blocked prompt finishes content_filter with the prompt usage', () => {
    const got = collect(replay(loadChunks('prompt-blocked'), translator()));
    expect(got.finishes).toEqual(['content_filter']);
    expect(got.errors).toEqual([]);
    expect(got.usages).toEqual([
      { promptTokens: 9, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    ]);
  });

  it("MALFORMED_FUNCTION_CALL is an error event carrying Gemini's finish message; usage first", () => {
    const events = replay(loadChunks('malformed-function-call'), translator());
    expect(events.map((e) => e.type)).toEqual(['upstream-id', 'usage', 'error']);
    expect(collect(events).errors[0]).toEqual({
      code: 'server_error',
      message:
        'Upstream provider google stopped generation (MALFORMED_FUNCTION_CALL): Malformed function call: get_weather(city=Oslo',
    });
  });

  it("an error object mid-stream names neither the operator's project nor its quota metrics (Google's details are dropped)", () => {
    const error = {
      code: 500,
      status: 'INTERNAL',
      message:
        'Internal error for consumer projects/123456789012 (project number 123456789012), metric generativelanguage.googleapis.com/generate_content_paid_tier_requests',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'X',
          metadata: { consumer: 'projects/123456789012' },
        },
      ],
    };
    const [event] = collect(translator().push({ data: JSON.stringify({ error }) })).errors;
    expect(event).toEqual({
      code: 'server_error',
      message:
        'Upstream provider google failed (HTTP 500). Internal error for consumer projects/[redacted] (project number [redacted]), metric [quota metric]',
    });
  });

  it("an error object mid-stream → one error event with Gemini's text; nothing after it", () => {
    const t = translator();
    const events = replay(loadChunks('mid-stream-error'), t);
    const got = collect(events);
    expect(got.content).toBe('The question');
    expect(got.finishes).toEqual([]);
    expect(got.errors).toEqual([
      { code: 'server_error', message: expect.stringContaining('An internal error has occurred') },
    ]);
    expect(events.at(-1)?.type).toBe('error');
    expect(t.push({ data: '{"candidates":[]}' })).toEqual([]);
  });

  it('a mid-stream 429 maps to rate_limit, an over-long prompt to context_length_exceeded', () => {
    const code = (error: object) => collect(translator().push({ data: JSON.stringify({ error }) })).errors[0].code;
    expect(
      code({ code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' }),
    ).toBe('rate_limit');
    expect(
      code({
        code: 400,
        message: 'The input token count (2000000) exceeds the maximum number of tokens allowed (1048576).',
        status: 'INVALID_ARGUMENT',
      }),
    ).toBe('context_length_exceeded');
    expect(code({ message: 'overloaded', status: 'UNAVAILABLE' })).toBe('server_error');
  });

  it('a stream that stops without a finishReason is a server_error, usage still reported', () => {
    const events = replay(loadChunks('truncated'), translator());
    const got = collect(events);
    expect(got.content).toBe('Once upon');
    expect(got.errors).toEqual([
      { code: 'server_error', message: expect.stringContaining('closed the stream before it finished') },
    ]);
    expect(got.usages).toHaveLength(1);
  });

  it('never throws: junk becomes one error; keep-alives and a proxy [DONE] are ignored', () => {
    expect(translator().push({ data: '' })).toEqual([]);
    expect(translator().push({ data: '[DONE]' })).toEqual([]);
    for (const data of [
      '{not json',
      '42',
      '{"hello":"world"}',
      '{"candidates":{}}',
      '{"candidates":[7]}',
      '{"candidates":[{"content":{"parts":[{"functionCall":{}}]}}]}',
    ]) {
      const t = translator();
      const events = t.push({ data });
      expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
      expect(t.push({ data: '{"candidates":[{"content":{"parts":[{"text":"x"}]},"finishReason":"STOP"}]}' })).toEqual(
        [],
      );
      expect(t.end()).toEqual([]);
    }
  });

  it('skips part kinds it never asked for, and content after the finish', () => {
    const t = translator();
    const events = [
      ...t.push({
        data: JSON.stringify({
          candidates: [
            {
              content: { parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { text: 'ok' }] },
              finishReason: 'STOP',
            },
          ],
        }),
      }),
      ...t.push({
        data: JSON.stringify({
          candidates: [{ content: { parts: [{ text: 'late' }] } }],
          usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1 },
        }),
      }),
      ...t.end(),
    ];
    expect(events).toEqual([
      { type: 'text-delta', text: 'ok' },
      { type: 'finish', finishReason: 'stop' },
      {
        type: 'usage',
        usage: { promptTokens: 3, completionTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
    ]);
  });

  it('the adapter hands out one fresh translator per request', () => {
    const adapter = createGeminiAdapter();
    const a = adapter.createStreamTranslator(geminiContext({}, true));
    const b = adapter.createStreamTranslator(geminiContext({}, true));
    expect(collect(replay(loadChunks('text'), a)).content).toBe(collect(replay(loadChunks('text'), b)).content);
  });
});
