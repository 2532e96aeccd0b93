import { describe, expect, it } from 'vitest';
import { OutputBlockSequencer, completionBlocks, type BlockOp } from '../../../src/formats/shared/output-blocks.js';
import type { ReasoningState, StreamEvent } from '../../../src/core/generation.js';

function run(events: StreamEvent[]): { ops: BlockOp[]; sequencer: OutputBlockSequencer } {
  const sequencer = new OutputBlockSequencer();
  const ops = events.flatMap((event) => sequencer.push(event));
  ops.push(...sequencer.finish());
  return { ops, sequencer };
}

const text = (value: string): StreamEvent => ({ type: 'text-delta', text: value });
const reasoning = (value: string): StreamEvent => ({ type: 'reasoning-delta', text: value });
const record = (state: ReasoningState): StreamEvent => ({ type: 'reasoning-state', state });

describe('OutputBlockSequencer', () => {
  it('Anthropic order: thinking streamed then signed at stop, then text, then a tool call', () => {
    const signed = { text: 'Let me think.', signature: 'sig1', format: 'anthropic-claude-v1', index: 0 };
    const { ops, sequencer } = run([
      reasoning('Let me '),
      reasoning('think.'),
      record(signed),
      text('Hello'),
      text(' world'),
      { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'get_weather', kind: 'function', input: '' },
      { type: 'tool-call-delta', index: 0, input: '{"city":' },
      { type: 'tool-call-delta', index: 0, input: '"Paris"}' },
    ]);
    expect(ops).toEqual([
      { op: 'open', index: 0, block: { type: 'reasoning', records: [] } },
      { op: 'text', index: 0, text: 'Let me ' },
      { op: 'text', index: 0, text: 'think.' },
      { op: 'signature', index: 0, signature: 'sig1' },
      {
        op: 'close',
        index: 0,
        block: { type: 'reasoning', text: 'Let me think.', signature: 'sig1', records: [signed] },
      },
      { op: 'open', index: 1, block: { type: 'text' } },
      { op: 'text', index: 1, text: 'Hello' },
      { op: 'text', index: 1, text: ' world' },
      { op: 'close', index: 1, block: { type: 'text', text: 'Hello world' } },
      { op: 'open', index: 2, block: { type: 'tool_call', id: 'toolu_1', name: 'get_weather', kind: 'function' } },
      { op: 'input', index: 2, fragment: '{"city":' },
      { op: 'input', index: 2, fragment: '"Paris"}' },
      {
        op: 'close',
        index: 2,
        block: { type: 'tool_call', id: 'toolu_1', name: 'get_weather', kind: 'function', input: '{"city":"Paris"}' },
      },
    ]);
    expect(sequencer.blocks().map((b) => b.type)).toEqual(['reasoning', 'text', 'tool_call']);
    expect(sequencer.count).toBe(3);
  });

  it('a sealed reasoning block takes no more text: two thinking blocks stay two blocks', () => {
    const { sequencer } = run([
      reasoning('a'),
      record({ text: 'a', signature: 's1' }),
      reasoning('b'),
      record({ text: 'b', signature: 's2' }),
    ]);
    expect(sequencer.blocks().map((b) => b.type === 'reasoning' && [b.text, b.signature])).toEqual([
      ['a', 's1'],
      ['b', 's2'],
    ]);
  });

  it('opaque records are blocks of their own, opened with their record', () => {
    const opaque = { data: 'opaque', format: 'anthropic-claude-v1', index: 0 };
    const { ops } = run([text('x'), record(opaque), text('y')]);
    expect(ops.filter((op) => op.op === 'open').map((op) => op.op === 'open' && op.block)).toEqual([
      { type: 'text' },
      { type: 'reasoning', records: [opaque] },
      { type: 'text' },
    ]);
    expect(ops.find((op) => op.op === 'close' && op.index === 1)).toEqual({
      op: 'close',
      index: 1,
      block: { type: 'reasoning', text: '', records: [opaque] },
    });
  });

  it("Gemini order: a thought with its signature, then a call's signature record and the whole call", () => {
    const thought = { text: 'hmm', signature: 'g1', format: 'google-gemini-v1', index: 0 };
    const callSig = { data: 'g2', callId: 'call_a', format: 'google-gemini-v1', index: 1 };
    const { sequencer } = run([
      reasoning('hmm'),
      record(thought),
      record(callSig),
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f', kind: 'function', input: '{"x":1}' },
    ]);
    expect(sequencer.blocks()).toEqual([
      { type: 'reasoning', text: 'hmm', signature: 'g1', records: [thought] },
      { type: 'reasoning', text: '', records: [callSig] },
      { type: 'tool_call', id: 'call_a', name: 'f', kind: 'function', input: '{"x":1}' },
    ]);
  });

  it('a signed record without streamed text opens its block and supplies the text; unsigned records do not repeat streamed text', () => {
    const { ops } = run([record({ text: 'whole', signature: 's' })]);
    expect(ops.filter((op) => op.op === 'text')).toEqual([{ op: 'text', index: 0, text: 'whole' }]);
    const again = run([reasoning('abc'), record({ text: 'abc' })]);
    expect(again.ops.filter((op) => op.op === 'text')).toEqual([{ op: 'text', index: 0, text: 'abc' }]);
    expect(again.sequencer.blocks()[0]).toEqual({ type: 'reasoning', text: 'abc', records: [{ text: 'abc' }] });
  });

  it('parallel tool calls become consecutive blocks; a late fragment for a closed call is dropped, not misplaced', () => {
    const { sequencer } = run([
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f', kind: 'function', input: '{}' },
      { type: 'tool-call-start', index: 1, id: 'b', name: 'g', kind: 'function', input: '{"y"' },
      { type: 'tool-call-delta', index: 0, input: 'late' },
      { type: 'tool-call-delta', index: 1, input: ':2}' },
    ]);
    expect(sequencer.blocks()).toEqual([
      { type: 'tool_call', id: 'a', name: 'f', kind: 'function', input: '{}' },
      { type: 'tool_call', id: 'b', name: 'g', kind: 'function', input: '{"y":2}' },
    ]);
  });

  it('a custom tool call keeps its kind and its raw input; a namespaced one its namespace', () => {
    const { sequencer } = run([
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'apply_patch', kind: 'custom', input: '*** Begin Patch\n' },
      { type: 'tool-call-delta', index: 0, input: '*** End Patch' },
      {
        type: 'tool-call-start',
        index: 1,
        id: 'c2',
        name: 'spawn',
        namespace: 'multi_agent_v1',
        kind: 'function',
        input: '{}',
      },
    ]);
    expect(sequencer.blocks()).toEqual([
      { type: 'tool_call', id: 'c1', name: 'apply_patch', kind: 'custom', input: '*** Begin Patch\n*** End Patch' },
      { type: 'tool_call', id: 'c2', name: 'spawn', namespace: 'multi_agent_v1', kind: 'function', input: '{}' },
    ]);
  });

  it('finish with nothing open emits nothing; events that are no output emit nothing', () => {
    const sequencer = new OutputBlockSequencer();
    expect(sequencer.push({ type: 'upstream-id', id: 'x' })).toEqual([]);
    expect(sequencer.push(text(''))).toEqual([]);
    expect(
      sequencer.push({
        type: 'usage',
        usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      }),
    ).toEqual([]);
    expect(sequencer.finish()).toEqual([]);
  });
});

describe('completionBlocks', () => {
  it("keeps the reply's order: reasoning records, text, tool calls", () => {
    const blocks = completionBlocks({
      output: [
        { type: 'reasoning', text: 'one', signature: 's1' },
        { type: 'reasoning', text: 'two', signature: 's2' },
        { type: 'text', text: 'Answer' },
        { type: 'tool_call', id: 't1', name: 'f', kind: 'function', input: '{"a":1}' },
      ],
      finishReason: 'tool_calls',
    });
    expect(
      blocks.map((b) =>
        b.type === 'reasoning'
          ? `r:${b.text}`
          : b.type === 'text'
            ? `t:${b.text}`
            : b.type === 'tool_call'
              ? `c:${b.name}`
              : b.type,
      ),
    ).toEqual(['r:one', 'r:two', 't:Answer', 'c:f']);
  });

  it('plain reasoning text is a block without records; consecutive text joins one block', () => {
    expect(
      completionBlocks({
        output: [
          { type: 'reasoning', text: 'why' },
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
        finishReason: 'stop',
      }),
    ).toEqual([
      { type: 'reasoning', text: 'why', records: [] },
      { type: 'text', text: 'ab' },
    ]);
  });
});
