// Content chunks are serialized from a per-stream prefix: the bytes must be exactly those of serializing the whole
// chunk object, whatever the delta, id and model hold.
import { describe, expect, it } from 'vitest';
import { ChunkFactory } from '../../src/formats/chat-completions/chunk-factory.js';
import type { ChunkDelta } from '../../src/formats/chat-completions/wire-types.js';

const deltas: ChunkDelta[] = [
  { content: 'Hello' },
  { content: '' },
  { content: 'quotes " and \\ backslashes, a newline\n, a tab\t, unicode é 漢字 🙂 and \u2028' },
  { reasoning: 'thinking…' },
  { content: 'both', reasoning: 'why' },
  { reasoning_details: [{ type: 'reasoning.text', text: 'step', index: 0 }] } as ChunkDelta,
  { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
  { refusal: 'no' },
  { role: 'assistant', content: 'x' },
  { content: undefined, reasoning: 'undefined fields are left out' } as ChunkDelta,
  {},
];

describe('ChunkFactory.deltaJson', () => {
  it.each([
    ['gen-1795317228617-jcctOruQe0tGKA', 'openai/gpt-test', 1_795_317_228],
    ['id "with" quotes\\', 'model/é/漢字', 0],
  ])('matches JSON.stringify(delta(...)) byte for byte (id %s)', (id, model, created) => {
    const chunks = new ChunkFactory(id, model, created);
    for (const delta of deltas) {
      expect(chunks.deltaJson(delta)).toBe(JSON.stringify(chunks.delta(delta)));
    }
    expect(JSON.parse(chunks.deltaJson({ content: 'hi' }))).toEqual({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }],
    });
  });
});

describe('ChunkFactory with the serving provider', () => {
  it('puts a top-level provider in every chunk, the fast delta path included', () => {
    const chunks = new ChunkFactory('gen-1', 'alpha/chat', 1_795_317_228, 'gamma');
    for (const delta of deltas) {
      expect(chunks.deltaJson(delta)).toBe(JSON.stringify(chunks.delta(delta)));
      expect(JSON.parse(chunks.deltaJson(delta)).provider).toBe('gamma');
    }
    expect(chunks.role().provider).toBe('gamma');
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } as never;
    expect(chunks.finish('stop', usage).provider).toBe('gamma');
    expect(chunks.error('server_error', 'x', usage).provider).toBe('gamma');
  });
});
