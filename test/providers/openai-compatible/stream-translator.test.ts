import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  createOpenAICompatibleAdapter,
  createStreamTranslator,
} from '../../../src/providers/openai-compatible/index.js';
import { collect, context, loadChunks, replay } from '../../helpers/stream-replay.js';

const translator = () => createStreamTranslator({ providerId: 'test' });

describe('stream translator: recorded vendor streams', () => {
  it('OpenAI streamed text with the include_usage chunk', () => {
    const events = replay(loadChunks('openai', 'text'), translator());
    expect(events[0]).toEqual({ type: 'upstream-id', id: 'chatcmpl-BwoiPTGRbKkY5rncfaM0s9KtWrq5N' });
    expect(events.slice(-2)).toEqual([
      { type: 'finish', finishReason: 'stop' },
      {
        type: 'usage',
        usage: { promptTokens: 19, completionTokens: 12, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
    ]);
    const got = collect(events);
    expect(got.content).toBe('Hello! How can I help you today? é世😀');
    expect(got.ids).toHaveLength(1);
    expect(got.errors).toEqual([]);
  });

  it('gives the same events for every split of the bytes (multi-byte text included)', () => {
    const bytes = loadChunks('openai', 'text');
    const whole = replay(bytes, translator());
    for (let cut = 1; cut < bytes.length; cut += 13) {
      expect(replay(bytes, translator(), [cut, cut + 1, cut + 2])).toEqual(whole);
    }
  });

  it('OpenAI single streamed tool call', () => {
    const got = collect(replay(loadChunks('openai', 'tool-call'), translator()));
    expect(got.toolCalls).toEqual([
      { id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_current_weather', arguments: '{"location":"Boston, MA"}' },
    ]);
    expect(got.finishes).toEqual(['tool_calls']);
  });

  it('OpenAI parallel tool calls: index, id, name and input fragments preserved', () => {
    const events = replay(loadChunks('openai', 'parallel-tool-calls'), translator());
    expect(events).toContainEqual({
      type: 'tool-call-start',
      index: 1,
      id: 'call_c7Hk2NqL5vR0mB3xD9sW4yJz',
      name: 'get_weather',
      kind: 'function',
      input: '',
    });
    expect(events).toContainEqual({ type: 'tool-call-delta', index: 0, input: 'ty": "Os' });
    const got = collect(events);
    expect(got.toolCalls).toEqual([
      { id: 'call_Ug4Y3X7oQ0fWc2sZP1rT8e9A', name: 'get_weather', arguments: '{"city": "Oslo"}' },
      { id: 'call_c7Hk2NqL5vR0mB3xD9sW4yJz', name: 'get_weather', arguments: '{"city": "Tokyo"}' },
    ]);
    expect(got.finishes).toEqual(['tool_calls']);
    expect(got.usages).toEqual([
      { promptTokens: 88, completionTokens: 46, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    ]);
  });

  it('OpenAI mid-stream error object becomes one server_error and ends the stream', () => {
    const events = replay(loadChunks('openai', 'mid-stream-error'), translator());
    const got = collect(events);
    expect(got.content).toBe('The question');
    expect(got.finishes).toEqual([]);
    expect(got.errors).toHaveLength(1);
    expect(got.errors[0].code).toBe('server_error');
    expect(got.errors[0].message).toContain('The server had an error while processing your request');
    expect(events.at(-1)?.type).toBe('error');
  });

  it('DeepSeek reasoning_content then content; usage on the finish chunk', () => {
    const got = collect(replay(loadChunks('deepseek', 'reasoning'), translator()));
    expect(got.reasoning).toBe('Compare 9.11 and 9.8: 0.80 > 0.11.');
    expect(got.content).toBe('9.8 is greater.');
    expect(got.finishes).toEqual(['stop']);
    expect(got.usages).toEqual([
      { promptTokens: 18, completionTokens: 42, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 35 },
    ]);
  });

  it('OpenRouter reasoning + reasoning_details (summary and encrypted), comments ignored', () => {
    const got = collect(replay(loadChunks('openrouter', 'reasoning'), translator()));
    expect(got.reasoning).toBe("**Counting letters**\n\nI need to count the r's in strawberry.");
    expect(got.reasoningDetails.map((d) => (d as { type: string }).type)).toEqual([
      'reasoning.summary',
      'reasoning.summary',
      'reasoning.encrypted',
    ]);
    expect(got.reasoningDetails[2]).toMatchObject({
      id: 'rs_68a1f0c2b9e48190a2b3c4d5e6f70812',
      format: 'openai-responses-v1',
      index: 1,
    });
    expect(got.content).toBe('There are 3 r\'s in "strawberry".');
    expect(got.finishes).toEqual(['stop']);
    expect(got.usages).toEqual([
      { promptTokens: 14, completionTokens: 210, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 192 },
    ]);
    expect(got.errors).toEqual([]);
  });

  it('OpenRouter mid-stream error with finish_reason "error"', () => {
    const got = collect(replay(loadChunks('openrouter', 'mid-stream-error'), translator()));
    expect(got.content).toBe('Designing a rate limiter');
    expect(got.finishes).toEqual([]);
    expect(got.errors).toHaveLength(1);
    expect(got.errors[0]).toMatchObject({ code: 'server_error' });
    expect(got.errors[0].message).toContain('Network connection lost.');
  });

  it('is reachable through the adapter object', () => {
    const adapter = createOpenAICompatibleAdapter();
    const got = collect(
      replay(loadChunks('openai', 'text'), adapter.createStreamTranslator(context({ id: 'openai' }, {}, true))),
    );
    expect(got.finishes).toEqual(['stop']);
  });
});

describe('stream translator: never throws on bad input', () => {
  const run = (...data: string[]) => {
    const t = translator();
    const events = data.flatMap((d) => t.push({ data: d }));
    return [...events, ...t.end()];
  };

  it('unparseable JSON → one server_error, later events ignored', () => {
    const events = run(
      '{"choices":[{"delta":{"content":"a"}}]}',
      '{not json',
      '{"choices":[{"delta":{"content":"b"}}]}',
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'error', code: 'server_error', message: expect.stringContaining('unparseable') },
    ]);
  });

  it.each([['[1,2]'], ['"text"'], ['{"object":"ping"}'], ['{"choices":{"0":{}}}'], ['{"choices":[42]}']])(
    'unknown shape %s → server_error',
    (data) => {
      const events = run(data);
      expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
      expect(events.find((e) => e.type === 'error')).toMatchObject({ code: 'server_error' });
    },
  );

  it('maps in-stream error codes: rate limit and context length', () => {
    expect(run('{"error":{"code":429,"message":"Rate limit exceeded"}}')).toEqual([
      { type: 'error', code: 'rate_limit', message: expect.any(String) },
    ]);
    expect(
      run(
        '{"error":{"message":"This model\'s maximum context length is 8192 tokens.","type":"invalid_request_error"}}',
      )[0],
    ).toMatchObject({
      code: 'context_length_exceeded',
    });
    const flagged = run('{"choices":[{"index":0,"delta":{},"finish_reason":"content_filter"}]}', '[DONE]');
    expect(flagged).toEqual([{ type: 'finish', finishReason: 'content_filter' }]);
  });

  it('an `event: error` SSE event is an error even without an error key', () => {
    const t = translator();
    expect(t.push({ event: 'error', data: '{"message":"overloaded"}' })).toEqual([
      { type: 'error', code: 'server_error', message: expect.stringContaining('overloaded') },
    ]);
  });

  it('a stream that ends without finish or [DONE] reports a truncation error, after its usage', () => {
    const events = run(
      '{"id":"a","choices":[{"delta":{"content":"x"}}],"usage":{"prompt_tokens":1,"completion_tokens":1}}',
    );
    // Usage first: the pipeline stops reading events at an error, and the reported usage is what the upstream bills.
    expect(events.map((e) => e.type)).toEqual(['upstream-id', 'text-delta', 'usage', 'error']);
  });

  it('an in-stream error after a usage report still reports that usage, before the error', () => {
    const events = run(
      '{"choices":[{"delta":{"content":"x"}}]}',
      '{"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3}}',
      '{"error":{"message":"overloaded","type":"server_error"}}',
    );
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'usage', 'error']);
    expect(events[1]).toMatchObject({ usage: { promptTokens: 7, completionTokens: 3 } });
  });

  it('[DONE] without a finish_reason implies stop; keep-alive empty data is ignored', () => {
    expect(run('', '{"choices":[{"delta":{"content":"x"}}]}', '[DONE]')).toEqual([
      { type: 'text-delta', text: 'x' },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  it('takes Groq usage from x_groq and the last of repeated usage reports', () => {
    const events = run(
      '{"choices":[{"delta":{"content":"x"}}],"usage":{"prompt_tokens":1,"completion_tokens":1}}',
      '{"choices":[{"delta":{},"finish_reason":"stop"}],"x_groq":{"usage":{"prompt_tokens":3,"completion_tokens":4}}}',
      '[DONE]',
    );
    expect(events.filter((e) => e.type === 'usage')).toEqual([
      {
        type: 'usage',
        usage: { promptTokens: 3, completionTokens: 4, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
    ]);
  });
});

// ---- property: any well-formed vendor chunk sequence ----

const text = fc.string({ unit: 'binary', maxLength: 8 });
const chunkArb = fc.record({
  content: fc.option(text, { nil: undefined }),
  reasoning: fc.option(text, { nil: undefined }),
  reasoningField: fc.constantFrom('reasoning_content', 'reasoning'),
  toolArgs: fc.option(fc.tuple(fc.nat({ max: 2 }), text), { nil: undefined }),
});
const usageArb = fc.record({ prompt_tokens: fc.nat({ max: 1e6 }), completion_tokens: fc.nat({ max: 1e6 }) });

describe('stream translator: property', () => {
  it('content and reasoning concatenate exactly, at most one finish, usage iff sent', () => {
    fc.assert(
      fc.property(
        fc.array(chunkArb, { maxLength: 12 }),
        fc.option(fc.constantFrom('stop', 'length', 'tool_calls', 'content_filter', 'function_call'), {
          nil: undefined,
        }),
        fc.option(usageArb, { nil: undefined }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 6 }),
        (chunks, finish, usage, sendDone, cuts) => {
          const base = { id: 'chatcmpl-prop', object: 'chat.completion.chunk', created: 1, model: 'm' };
          const lines: string[] = [];
          for (const c of chunks) {
            const delta: Record<string, unknown> = {};
            if (c.content !== undefined) delta.content = c.content;
            if (c.reasoning !== undefined) delta[c.reasoningField] = c.reasoning;
            if (c.toolArgs) delta.tool_calls = [{ index: c.toolArgs[0], function: { arguments: c.toolArgs[1] } }];
            lines.push(JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] }));
          }
          if (finish)
            lines.push(JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] }));
          if (usage) lines.push(JSON.stringify({ ...base, choices: [], usage }));
          if (sendDone) lines.push('[DONE]');
          const bytes = new TextEncoder().encode(lines.map((l) => `data: ${l}\n\n`).join(''));

          const got = collect(replay(bytes, translator(), cuts));
          expect(got.content).toBe(chunks.map((c) => c.content ?? '').join(''));
          expect(got.reasoning).toBe(chunks.map((c) => c.reasoning ?? '').join(''));
          const args = new Map<number, string>();
          for (const c of chunks)
            if (c.toolArgs) args.set(c.toolArgs[0], (args.get(c.toolArgs[0]) ?? '') + c.toolArgs[1]);
          for (const [index, value] of args) expect(got.toolCalls[index]?.arguments).toBe(value);
          expect(got.finishes.length).toBeLessThanOrEqual(1);
          expect(got.usages).toEqual(
            usage
              ? [
                  {
                    promptTokens: usage.prompt_tokens,
                    completionTokens: usage.completion_tokens,
                    cachedTokens: 0,
                    cacheWriteTokens: 0,
                    reasoningTokens: 0,
                  },
                ]
              : [],
          );
          if (finish || sendDone) {
            expect(got.finishes).toHaveLength(1);
            expect(got.errors).toEqual([]);
          } else {
            expect(got.errors.map((e) => e.code)).toEqual(['server_error']);
          }
          expect(got.ids).toEqual(lines.some((l) => l.startsWith('{')) ? ['chatcmpl-prop'] : []);
        },
      ),
      { numRuns: 200 },
    );
  });
});
