import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/core/generation.js';
import { createAnthropicAdapter, createStreamTranslator } from '../../../src/providers/anthropic/index.js';
import { collect, completionView, loadChunks, loadJson, replay } from '../../helpers/stream-replay.js';
import { anthropicContext } from './anthropic-context.js';

const translator = () => createStreamTranslator({ providerId: 'anthropic' });
const chunks = (name: string) => loadChunks('anthropic', name);
const usage = (prompt: number, completion: number, cached = 0, cacheWrite = 0) => ({
  promptTokens: prompt,
  completionTokens: completion,
  cachedTokens: cached,
  cacheWriteTokens: cacheWrite,
  reasoningTokens: 0,
});
const push = (events: Array<Record<string, unknown> | string>) => {
  const t = translator();
  const out: StreamEvent[] = [];
  for (const e of events) out.push(...t.push({ data: typeof e === 'string' ? e : JSON.stringify(e) }));
  return { out, end: () => [...out, ...t.end()] };
};
const START = { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 10, output_tokens: 1 } } };

describe('stream translator: recorded Anthropic streams', () => {
  it('text: id first, content deltas, one finish and the final usage', () => {
    const events = replay(chunks('text'), translator());
    expect(events).toEqual([
      { type: 'upstream-id', id: 'msg_01Bq9w938a90dw8q' },
      { type: 'text-delta', text: 'Hello!' },
      { type: 'text-delta', text: ' How can I help you today? é世😀' },
      { type: 'finish', finishReason: 'stop' },
      { type: 'usage', usage: usage(12, 16) },
    ]);
  });

  it("cache writes split by lifetime: message_start's cache_creation survives message_delta's cumulative totals", () => {
    const events = replay(chunks('cache-1h'), translator());
    expect(events.filter((e) => e.type === 'usage')).toEqual([
      { type: 'usage', usage: { ...usage(48 + 12000 + 2048, 120, 2048, 12000), cacheWrite1hTokens: 10000 } },
    ]);
  });

  it('gives the same events for every split of the bytes (multi-byte text included)', () => {
    for (const name of ['text', 'thinking-tool-use']) {
      const bytes = chunks(name);
      const whole = replay(bytes, translator());
      for (let cut = 1; cut < bytes.length; cut += 17) {
        expect(replay(bytes, translator(), [cut, cut + 1, cut + 3])).toEqual(whole);
      }
    }
  });

  it('tool use: a start with id and name, input fragments after, finish tool_calls', () => {
    const events = replay(chunks('tool-use'), translator());
    expect(events).toContainEqual({
      type: 'tool-call-start',
      index: 0,
      id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
      name: 'get_weather',
      kind: 'function',
      input: '',
    });
    expect(events).toContainEqual({ type: 'tool-call-delta', index: 0, input: ' Francisc' });
    const got = collect(events);
    expect(got.content).toBe("Okay, let's check the weather for San Francisco, CA:");
    expect(got.toolCalls).toEqual([
      {
        id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
        name: 'get_weather',
        arguments: '{"location": "San Francisco, CA", "unit": "fahrenheit"}',
      },
    ]);
    expect(got.finishes).toEqual(['tool_calls']);
    expect(got.usages).toEqual([usage(472, 89)]);
  });

  it('parallel tool calls get indexes 0 and 1; a call without arguments gets "{}"', () => {
    const got = collect(replay(chunks('parallel-tool-use'), translator()));
    expect(got.toolCalls).toEqual([
      { id: 'toolu_01Oslo7cW1Vb4iPq2fXwYz8K', name: 'get_weather', arguments: '{"city": "Oslo"}' },
      { id: 'toolu_01Tokyo9dR3Nm5kLs8aQpE2T', name: 'get_time', arguments: '{}' },
    ]);
    // message_delta repeated the cumulative input counts; they are kept.
    expect(got.usages).toEqual([usage(610, 104)]);
  });

  it('thinking: reasoning deltas, then one reasoning.text detail carrying the signature when the block stops', () => {
    const events = replay(chunks('thinking'), translator());
    const detailAt = events.findIndex((e) => e.type === 'reasoning-state');
    const textAt = events.findIndex((e) => e.type === 'text-delta');
    expect(detailAt).toBeGreaterThan(0);
    expect(detailAt).toBeLessThan(textAt);
    const got = collect(events);
    expect(got.reasoning).toBe(
      'Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3',
    );
    expect(got.reasoningDetails).toEqual([
      {
        type: 'reasoning.text',
        text: 'Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3',
        signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+vA2fYR==',
        format: 'anthropic-claude-v1',
        index: 0,
      },
    ]);
    expect(got.content).toBe('27 * 453 = 12,231');
    expect(got.finishes).toEqual(['stop']);
  });

  it('thinking + redacted_thinking + tool_use: the same details as the non-streamed reply', () => {
    const adapter = createAnthropicAdapter();
    const ctx = anthropicContext({}, true);
    const got = collect(replay(chunks('thinking-tool-use'), adapter.createStreamTranslator(ctx)));
    expect(got.reasoningDetails).toEqual(
      completionView(adapter.parseCompletion(loadJson('anthropic', 'thinking-tool-use'), ctx)).reasoningDetails,
    );
    expect(got.reasoningDetails.map((d) => (d as { type: string }).type)).toEqual([
      'reasoning.text',
      'reasoning.encrypted',
    ]);
    expect(got.reasoningDetails[1]).toEqual({
      type: 'reasoning.encrypted',
      data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB8URj2pLmN0oQWjy==',
      format: 'anthropic-claude-v1',
      index: 1,
    });
    expect(got.toolCalls).toEqual([
      { id: 'toolu_01CswdEQBMshySk6Y9DFKrfq', name: 'get_weather', arguments: '{"location": "Paris"}' },
    ]);
    expect(got.finishes).toEqual(['tool_calls']);
  });

  it('refusal stop reason → finish content_filter', () => {
    const got = collect(replay(chunks('refusal'), translator()));
    expect(got.content).toBe('I can');
    expect(got.finishes).toEqual(['content_filter']);
    expect(got.errors).toEqual([]);
  });

  it('a web search is one web-search event; citations follow their text block, covering it', () => {
    const events = replay(chunks('server-tool'), translator());
    const search = events.find((e) => e.type === 'web-search');
    expect(search).toEqual({
      type: 'web-search',
      search: {
        id: 'srvtoolu_014hJH82Qum7Td6UV8gDXThB',
        status: 'completed',
        queries: ['weather NYC today'],
        sources: [
          { url: 'https://world-weather.info/forecast/usa/new_york/may-2025/', title: 'Weather in New York City' },
        ],
      },
    });
    const cited = events.findIndex((e) => e.type === 'citation');
    expect(events[cited - 1]).toEqual({ type: 'text-delta', text: 'It is sunny and 22°C in New York City.' });
    expect(events[cited]).toMatchObject({
      type: 'citation',
      span: 'It is sunny and 22°C in New York City.'.length,
      citation: { type: 'web_search_result_location', citedText: 'Sunny, 22°C' },
    });
  });

  it('server tools and unknown event types make no output; usage from message_delta wins, its web searches with it', () => {
    const got = collect(replay(chunks('server-tool'), translator()));
    expect(got.content).toBe(
      "I'll check the current weather in New York City for you.It is sunny and 22°C in New York City.",
    );
    expect(got.toolCalls).toEqual([]);
    expect(got.errors).toEqual([]);
    expect(got.finishes).toEqual(['stop']);
    // message_delta's server_tool_use.web_search_requests: the search Anthropic bills per request.
    expect(got.usages).toEqual([{ ...usage(10682, 510), webSearchRequests: 1 }]);
  });

  it('an overloaded_error event ends the stream with one server_error after the text so far', () => {
    const events = replay(chunks('mid-stream-error'), translator());
    expect(events.at(-1)).toEqual({
      type: 'error',
      code: 'server_error',
      message: 'Upstream provider anthropic is temporarily overloaded (HTTP 529). Overloaded',
    });
    const got = collect(events);
    expect(got.content).toBe('The question');
    expect(got.finishes).toEqual([]);
    expect(got.errors).toHaveLength(1);
    // Only message_start counts were known: the gateway estimates instead of billing 1 output token.
    expect(got.usages).toEqual([]);
  });

  it('a connection that drops mid-message → server_error on end()', () => {
    const got = collect(replay(chunks('truncated'), translator()));
    expect(got.content).toBe('Half an ans');
    expect(got.errors).toEqual([
      { code: 'server_error', message: 'Upstream provider anthropic closed the stream before the message finished.' },
    ]);
    expect(got.finishes).toEqual([]);
  });
});

describe('stream translator: protocol edges', () => {
  it('rate_limit_error in-stream → rate_limit, with usage first when message_delta had reported it', () => {
    const { out } = push([
      START,
      { type: 'message_delta', delta: { stop_reason: null }, usage: { output_tokens: 30 } },
      { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited' } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'ignored after the error' } },
    ]);
    expect(out).toEqual([
      { type: 'upstream-id', id: 'msg_1' },
      { type: 'usage', usage: usage(10, 30) },
      { type: 'error', code: 'rate_limit', message: 'Upstream provider anthropic rate limit reached; retry later.' },
    ]);
  });

  it('message_delta without message_stop still finishes cleanly with usage', () => {
    const { end } = push([
      START,
      { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 5 } },
    ]);
    expect(end()).toEqual([
      { type: 'upstream-id', id: 'msg_1' },
      { type: 'finish', finishReason: 'length' },
      { type: 'usage', usage: usage(10, 5) },
    ]);
  });

  it('message_stop without a stop reason still finishes once; later events are ignored', () => {
    const { end } = push([
      START,
      { type: 'message_stop' },
      { type: 'message_stop' },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' } },
    ]);
    expect(end()).toEqual([
      { type: 'upstream-id', id: 'msg_1' },
      { type: 'finish', finishReason: 'stop' },
      { type: 'usage', usage: usage(10, 1) },
    ]);
  });

  it('the SSE event name stands in for a missing `type`; ping is ignored', () => {
    const t = translator();
    expect(t.push({ event: 'ping', data: '{}' })).toEqual([]);
    expect(t.push({ event: 'message_start', data: JSON.stringify({ message: { id: 'msg_9' } }) })).toEqual([
      { type: 'upstream-id', id: 'msg_9' },
    ]);
  });

  it('malformed events become one server_error and never throw', () => {
    const cases: Array<Array<Record<string, unknown> | string>> = [
      ['{not json'],
      ['[1,2]'],
      ['{}'],
      [START, { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'x' } }],
      [START, { type: 'content_block_start', content_block: { type: 'text', text: '' } }],
      [START, { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', input: {} } }],
      [START, { type: 'content_block_stop', index: 0 }],
    ];
    for (const events of cases) {
      const got = collect(push(events).end());
      expect(got.errors).toHaveLength(1);
      expect(got.errors[0].code).toBe('server_error');
      expect(got.finishes).toEqual([]);
    }
  });

  it('a thinking block whose text arrives in content_block_start keeps it (and an empty signature stays absent)', () => {
    const { out } = push([
      START,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: 'pre', signature: '' } },
      { type: 'content_block_stop', index: 0 },
    ]);
    expect(out.slice(1)).toEqual([
      { type: 'reasoning-delta', text: 'pre' },
      { type: 'reasoning-state', state: { text: 'pre', format: 'anthropic-claude-v1', index: 0 } },
    ]);
  });
});
