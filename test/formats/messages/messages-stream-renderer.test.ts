// Recorded Anthropic streams → the native adapter's internal events → the Messages door's renderer: the door must
// reproduce Anthropic's own event sequence (the same blocks, deltas in the same order, signatures, stop reason).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StreamEvent, NormalizedUsage } from '../../../src/core/generation.js';
import { createStreamTranslator } from '../../../src/providers/anthropic/index.js';
import { MessagesStreamRenderer } from '../../../src/formats/messages/messages-stream-renderer.js';
import type { SseFrame } from '../../../src/core/stream-renderer.js';
import { loadChunks, replay } from '../../helpers/stream-replay.js';

const identity = { id: 'gen-1', model: 'anthropic/claude-haiku-5-5', provider: 'anthropic', created: 1 };
const totals = (usage: NormalizedUsage) => ({ usage, costNanos: 0n, accessMode: 'credits' as const });

function render(events: StreamEvent[]): SseFrame[] {
  const renderer = new MessagesStreamRenderer(identity, 0);
  const frames = renderer.start();
  let usage: NormalizedUsage = {
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  };
  let finish: 'stop' | 'length' | 'tool_calls' = 'stop';
  for (const event of events) {
    frames.push(...renderer.event(event));
    if (event.type === 'usage') usage = event.usage;
    if (event.type === 'finish') finish = event.finishReason as typeof finish;
  }
  frames.push(...renderer.end({ type: 'finish', finishReason: finish, totals: totals(usage) }));
  return frames;
}

/** The vendor's own events, without ids and usage (which the gateway sets), deltas merged per block as a client sees them. */
function shape(frames: Array<{ event?: string; data: string }>) {
  return frames
    .map((frame) => {
      const data = JSON.parse(frame.data) as Record<string, any>;
      expect(frame.event).toBe(data.type);
      if (data.type === 'content_block_delta') return `${data.index}:${data.delta.type}`;
      if (data.type === 'content_block_start') return `${data.index}:start:${data.content_block.type}`;
      if (data.type === 'content_block_stop') return `${data.index}:stop`;
      if (data.type === 'message_delta') return `message_delta:${data.delta.stop_reason}`;
      return data.type;
    })
    .filter((s, i, all) => !(s.endsWith('_delta') && s === all[i - 1])); // consecutive deltas of one kind: one
}

function vendorFrames(name: string) {
  return readFileSync(new URL(`../../fixtures/anthropic/${name}.chunks.txt`, import.meta.url), 'utf8')
    .split('\n\n')
    .filter((block) => block.includes('data:'))
    .map((block) => ({ event: /event: (.*)/.exec(block)?.[1], data: /data: (.*)/.exec(block)![1] }))
    .filter((frame) => frame.event !== 'ping');
}

describe('MessagesStreamRenderer against recorded Anthropic streams', () => {
  for (const name of ['text', 'thinking', 'tool-use', 'thinking-tool-use', 'parallel-tool-use']) {
    it(`${name}: the same event sequence as Anthropic sent`, () => {
      const frames = render(replay(loadChunks('anthropic', name), createStreamTranslator()));
      expect(shape(frames)).toEqual(shape(vendorFrames(name)));
    });
  }

  it("thinking: text, thinking and signature byte for byte; usage in Anthropic's convention", () => {
    const frames = render(replay(loadChunks('anthropic', 'thinking'), createStreamTranslator())).map((f) =>
      JSON.parse(f.data),
    );
    const deltas = frames.filter((f) => f.type === 'content_block_delta').map((f) => f.delta);
    expect(
      deltas
        .filter((d) => d.type === 'thinking_delta')
        .map((d) => d.thinking)
        .join(''),
    ).toBe('Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3');
    expect(deltas.find((d) => d.type === 'signature_delta')).toEqual({
      type: 'signature_delta',
      signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+vA2fYR==',
    });
    expect(frames.find((f) => f.type === 'message_delta').usage).toEqual({
      input_tokens: 46,
      output_tokens: 212,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    });
    expect(frames[0]).toMatchObject({
      type: 'message_start',
      message: { id: 'gen-1', model: 'anthropic/claude-haiku-5-5', content: [], stop_reason: null },
    });
  });

  it('tool use: input_json_delta fragments concatenate to the tool input; stop_reason tool_use', () => {
    const frames = render(replay(loadChunks('anthropic', 'tool-use'), createStreamTranslator())).map((f) =>
      JSON.parse(f.data),
    );
    const json = frames
      .filter((f) => f.delta?.type === 'input_json_delta')
      .map((f) => f.delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual(expect.any(Object));
    expect(frames.find((f) => f.type === 'message_delta').delta).toEqual({
      stop_reason: 'tool_use',
      stop_sequence: null,
    });
  });

  it("a failure after the start is one `event: error` in Anthropic's shape; ping is the keep-alive", () => {
    const renderer = new MessagesStreamRenderer(identity, 0);
    const usage = { promptTokens: 1, completionTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
    expect(renderer.end({ type: 'error', code: 'rate_limit', message: 'slow down', totals: totals(usage) })).toEqual([
      {
        event: 'error',
        data: JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }),
      },
    ]);
    expect(renderer.keepAlive).toBe('event: ping\ndata: {"type":"ping"}\n\n');
  });

  it('usage: input_tokens excludes cache reads and writes', () => {
    const renderer = new MessagesStreamRenderer(identity, 0);
    renderer.start();
    const usage = {
      promptTokens: 1000,
      completionTokens: 10,
      cachedTokens: 700,
      cacheWriteTokens: 200,
      reasoningTokens: 0,
    };
    const delta = JSON.parse(
      renderer.end({ type: 'finish', finishReason: 'length', totals: totals(usage) }).at(-2)!.data,
    );
    expect(delta).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'max_tokens', stop_sequence: null },
      usage: {
        input_tokens: 100,
        output_tokens: 10,
        cache_read_input_tokens: 700,
        cache_creation_input_tokens: 200,
        cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 0 },
      },
    });
  });

  it('message_start carries the prompt estimate as input_tokens; message_delta the exact cumulative counts', () => {
    const renderer = new MessagesStreamRenderer(identity, 1234);
    const start = JSON.parse(renderer.start()[0].data);
    expect(start.message.usage).toEqual({
      input_tokens: 1234,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    });
    const usage = { promptTokens: 900, completionTokens: 7, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
    const delta = JSON.parse(
      renderer.end({ type: 'finish', finishReason: 'stop', totals: totals(usage) }).at(-2)!.data,
    );
    expect(delta.usage).toEqual({
      input_tokens: 900,
      output_tokens: 7,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    });
  });
});
