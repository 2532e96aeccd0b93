import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/core/generation.js';
import type { GenerationTotals, SseFrame, StreamEnd } from '../../../src/core/stream-renderer.js';
import { ResponseStreamRenderer } from '../../../src/formats/responses/response-stream-renderer.js';
import { echoOf } from '../../../src/formats/responses/response-object.js';
import { createStreamTranslator } from '../../../src/providers/anthropic/index.js';
import { loadChunks, replay } from '../../helpers/stream-replay.js';

const identity = { id: 'gen-1', model: 'anthropic/claude-test', created: 1732200000, provider: 'anthropic' };
const totals: GenerationTotals = {
  usage: { promptTokens: 100, completionTokens: 40, cachedTokens: 30, cacheWriteTokens: 10, reasoningTokens: 12 },
  costNanos: 1_500_000n,
  accessMode: 'credits',
};
const echo = echoOf({ model: 'anthropic/claude-test', input: 'x', include: ['reasoning.encrypted_content'] });

function render(events: StreamEvent[], end: StreamEnd, encryptedReasoning = true) {
  const renderer = new ResponseStreamRenderer(identity, echo, { encryptedReasoning });
  const frames: SseFrame[] = [
    ...renderer.start(),
    ...events.flatMap((event) => renderer.event(event)),
    ...renderer.end(end),
  ];
  return frames.map((frame) => {
    const data = JSON.parse(frame.data);
    expect(data.type).toBe(frame.event);
    return data;
  });
}

/** Invariants of every stream: numbering, ids, deltas adding up to the done items, the final output. */
function checkConsistency(events: any[]): void {
  expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
  const added = new Map<number, any>();
  const text = new Map<number, string>();
  const done: any[] = [];
  for (const event of events) {
    if (event.type === 'response.output_item.added') {
      expect(event.output_index).toBe(added.size);
      added.set(event.output_index, event.item);
    } else if ('item_id' in event) {
      expect(event.item_id).toBe(added.get(event.output_index).id);
      if (event.type.endsWith('.delta'))
        text.set(event.output_index, (text.get(event.output_index) ?? '') + event.delta);
    } else if (event.type === 'response.output_item.done') {
      const item = event.item;
      expect(item.id).toBe(added.get(event.output_index).id);
      const streamed = text.get(event.output_index) ?? '';
      if (item.type === 'message') expect(item.content[0].text).toBe(streamed);
      if (item.type === 'function_call') expect(item.arguments).toBe(streamed);
      if (item.type === 'custom_tool_call') expect(item.input).toBe(streamed);
      if (item.type === 'reasoning') expect(item.summary.map((part: any) => part.text).join('')).toBe(streamed);
      done.push(item);
    }
  }
  expect(done).toHaveLength(added.size);
  expect(events.at(-1).response.output).toEqual(done);
}

describe('ResponseStreamRenderer', () => {
  it('a recorded Anthropic stream (signed thinking, redacted thinking, tool call) as Responses events', () => {
    const internal = replay(
      loadChunks('anthropic', 'thinking-tool-use'),
      createStreamTranslator({ providerId: 'anthropic' }),
    );
    const events = render(internal, { type: 'finish', finishReason: 'tool_calls', totals });
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    checkConsistency(events);
    expect(events[0].response).toMatchObject({ status: 'in_progress', output: [], error: null, store: false });
    expect(events[0].response).not.toHaveProperty('usage');
    const final = events.at(-1).response;
    expect(final).toMatchObject({
      id: 'gen-1',
      object: 'response',
      created_at: 1732200000,
      status: 'completed',
      model: 'anthropic/claude-test',
    });
    expect(final.output[2]).toEqual({
      type: 'function_call',
      id: 'fc_gen-1_2',
      call_id: 'toolu_01CswdEQBMshySk6Y9DFKrfq',
      name: 'get_weather',
      arguments: '{"location": "Paris"}',
      status: 'completed',
    });
    expect(final.output[0].encrypted_content).toMatch(/^mg1\./);
    expect(final.output[1]).toMatchObject({ type: 'reasoning', id: 'rs_gen-1_1', summary: [] });
    expect(final.usage).toEqual({
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 30 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 140,
      cost: 0.0015,
      cost_details: { access_mode: 'credits', charged: true },
    });
  });

  it('without include, reasoning items carry no encrypted_content', () => {
    const internal = replay(
      loadChunks('anthropic', 'thinking-tool-use'),
      createStreamTranslator({ providerId: 'anthropic' }),
    );
    const final = render(internal, { type: 'finish', finishReason: 'tool_calls', totals }, false).at(-1).response;
    for (const item of final.output) expect(item).not.toHaveProperty('encrypted_content');
  });

  it('length ends with response.incomplete (max_output_tokens); content_filter with its reason', () => {
    const delta: StreamEvent = { type: 'text-delta', text: 'cut' };
    expect(render([delta], { type: 'finish', finishReason: 'length', totals }).at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, error: null },
    });
    expect(
      render([delta], { type: 'finish', finishReason: 'content_filter', totals }).at(-1).response.incomplete_details,
    ).toEqual({ reason: 'content_filter' });
  });

  it('a failure after the start closes the open item, then error and response.failed with the usage so far', () => {
    const events = render([{ type: 'text-delta', text: 'The ' }], {
      type: 'error',
      code: 'rate_limit',
      message: 'Overloaded',
      totals,
    });
    expect(events.slice(-6).map((event) => event.type)).toEqual([
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'error',
      'response.failed',
    ]);
    expect(events.at(-2)).toMatchObject({ code: 'rate_limit_exceeded', message: 'Overloaded', param: null });
    expect(events.at(-1).response).toMatchObject({
      status: 'failed',
      error: { code: 'rate_limit_exceeded', message: 'Overloaded' },
      usage: { input_tokens: 100 },
    });
    checkConsistency(
      events.filter((event) => event.type !== 'error').map((event, i) => ({ ...event, sequence_number: i })),
    );
  });

  it('any interleaving of text, reasoning and tool-call events renders a consistent stream', () => {
    const piece: fc.Arbitrary<StreamEvent[]> = fc.oneof(
      fc.string({ minLength: 1, maxLength: 5 }).map((text): StreamEvent[] => [{ type: 'text-delta', text }]),
      fc.string({ minLength: 1, maxLength: 5 }).map((text): StreamEvent[] => [{ type: 'reasoning-delta', text }]),
      fc
        .tuple(fc.nat(2), fc.string({ maxLength: 5 }), fc.constantFrom('function' as const, 'custom' as const))
        .map(([index, input, kind]): StreamEvent[] => [
          { type: 'tool-call-start', index, id: `call_${index}`, name: `f${index}`, kind },
          { type: 'tool-call-delta', index, input },
        ]),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const events = render(pieces.flat(), { type: 'finish', finishReason: 'stop', totals });
        checkConsistency(events);
      }),
    );
  });

  it('a custom tool call streams as custom_tool_call with its input deltas and done', () => {
    const events = render(
      [
        { type: 'tool-call-start', index: 0, id: 'call_p', name: 'apply_patch', kind: 'custom', input: '*** Begin' },
        { type: 'tool-call-delta', index: 0, input: ' Patch' },
      ],
      { type: 'finish', finishReason: 'tool_calls', totals },
    );
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.at(-2).item).toEqual({
      type: 'custom_tool_call',
      id: 'fc_gen-1_0',
      call_id: 'call_p',
      name: 'apply_patch',
      input: '*** Begin Patch',
      status: 'completed',
    });
    expect(events.at(-3)).toMatchObject({ input: '*** Begin Patch' });
  });
});
