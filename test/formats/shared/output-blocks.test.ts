import { describe, expect, it } from 'vitest';
import { OutputBlockSequencer, completionBlocks, type BlockOp } from '../../../src/formats/shared/output-blocks.js';
import type { ChunkDelta } from '../../../src/core/chat-types.js';

function run(deltas: Array<Omit<ChunkDelta, 'role'>>): { ops: BlockOp[]; sequencer: OutputBlockSequencer } {
  const sequencer = new OutputBlockSequencer();
  const ops = deltas.flatMap((delta) => sequencer.push(delta));
  ops.push(...sequencer.finish());
  return { ops, sequencer };
}

describe('OutputBlockSequencer', () => {
  it('Anthropic order: thinking streamed then signed at stop, then text, then a tool call', () => {
    const { ops, sequencer } = run([
      { reasoning: 'Let me ' },
      { reasoning: 'think.' },
      { reasoning_details: [{ type: 'reasoning.text', text: 'Let me think.', signature: 'sig1', format: 'anthropic-claude-v1', index: 0 }] },
      { content: 'Hello' },
      { content: ' world' },
      { tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] },
    ]);
    expect(ops).toEqual([
      { op: 'open', index: 0, block: { type: 'reasoning', details: [] } },
      { op: 'text', index: 0, text: 'Let me ' },
      { op: 'text', index: 0, text: 'think.' },
      { op: 'signature', index: 0, signature: 'sig1' },
      {
        op: 'close', index: 0,
        block: { type: 'reasoning', text: 'Let me think.', signature: 'sig1', details: [{ type: 'reasoning.text', text: 'Let me think.', signature: 'sig1', format: 'anthropic-claude-v1', index: 0 }] },
      },
      { op: 'open', index: 1, block: { type: 'text' } },
      { op: 'text', index: 1, text: 'Hello' },
      { op: 'text', index: 1, text: ' world' },
      { op: 'close', index: 1, block: { type: 'text', text: 'Hello world' } },
      { op: 'open', index: 2, block: { type: 'tool_call', id: 'toolu_1', name: 'get_weather' } },
      { op: 'arguments', index: 2, fragment: '{"city":' },
      { op: 'arguments', index: 2, fragment: '"Paris"}' },
      { op: 'close', index: 2, block: { type: 'tool_call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
    expect(sequencer.blocks().map((b) => b.type)).toEqual(['reasoning', 'text', 'tool_call']);
    expect(sequencer.count).toBe(3);
  });

  it('a sealed reasoning block takes no more text: two thinking blocks stay two blocks', () => {
    const { sequencer } = run([
      { reasoning: 'a' },
      { reasoning_details: [{ type: 'reasoning.text', text: 'a', signature: 's1' }] },
      { reasoning: 'b' },
      { reasoning_details: [{ type: 'reasoning.text', text: 'b', signature: 's2' }] },
    ]);
    expect(sequencer.blocks().map((b) => b.type === 'reasoning' && [b.text, b.signature])).toEqual([['a', 's1'], ['b', 's2']]);
  });

  it('encrypted details are blocks of their own, opened with their detail', () => {
    const detail = { type: 'reasoning.encrypted' as const, data: 'opaque', format: 'anthropic-claude-v1', index: 0 };
    const { ops } = run([{ content: 'x' }, { reasoning_details: [detail] }, { content: 'y' }]);
    expect(ops.filter((op) => op.op === 'open').map((op) => op.op === 'open' && op.block)).toEqual([
      { type: 'text' },
      { type: 'reasoning', details: [detail] },
      { type: 'text' },
    ]);
    expect(ops.find((op) => op.op === 'close' && op.index === 1)).toEqual({ op: 'close', index: 1, block: { type: 'reasoning', text: '', details: [detail] } });
  });

  it('Gemini order: a thought with its signature in one delta, then a whole function call with its signature detail', () => {
    const thought = { type: 'reasoning.text' as const, text: 'hmm', signature: 'g1', format: 'google-gemini-v1', index: 0 };
    const callSig = { type: 'reasoning.encrypted' as const, data: 'g2', id: 'call_a', format: 'google-gemini-v1', index: 1 };
    const { sequencer } = run([
      { reasoning: 'hmm', reasoning_details: [thought] },
      { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }], reasoning_details: [callSig] },
    ]);
    expect(sequencer.blocks()).toEqual([
      { type: 'reasoning', text: 'hmm', signature: 'g1', details: [thought] },
      { type: 'reasoning', text: '', details: [callSig] },
      { type: 'tool_call', id: 'call_a', name: 'f', arguments: '{"x":1}' },
    ]);
  });

  it('a signed detail without streamed text opens its block and supplies the text; unsigned details do not repeat streamed text', () => {
    const { ops } = run([{ reasoning_details: [{ type: 'reasoning.text', text: 'whole', signature: 's' }] }]);
    expect(ops.filter((op) => op.op === 'text')).toEqual([{ op: 'text', index: 0, text: 'whole' }]);
    const again = run([{ reasoning: 'abc', reasoning_details: [{ type: 'reasoning.text', text: 'abc' }] }]);
    expect(again.ops.filter((op) => op.op === 'text')).toEqual([{ op: 'text', index: 0, text: 'abc' }]);
    expect(again.sequencer.blocks()[0]).toEqual({ type: 'reasoning', text: 'abc', details: [{ type: 'reasoning.text', text: 'abc' }] });
  });

  it('parallel tool calls become consecutive blocks; a late fragment for a closed call is dropped, not misplaced', () => {
    const { sequencer } = run([
      { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] },
      { tool_calls: [{ index: 1, id: 'b', function: { name: 'g', arguments: '{"y"' } }] },
      { tool_calls: [{ index: 0, function: { arguments: 'late' } }] },
      { tool_calls: [{ index: 1, function: { arguments: ':2}' } }] },
    ]);
    expect(sequencer.blocks()).toEqual([
      { type: 'tool_call', id: 'a', name: 'f', arguments: '{}' },
      { type: 'tool_call', id: 'b', name: 'g', arguments: '{"y":2}' },
    ]);
  });

  it('finish with nothing open emits nothing; an empty delta emits nothing', () => {
    const sequencer = new OutputBlockSequencer();
    expect(sequencer.push({})).toEqual([]);
    expect(sequencer.finish()).toEqual([]);
  });
});

describe('completionBlocks', () => {
  it('orders reasoning (per detail), text, tool calls', () => {
    const blocks = completionBlocks({
      content: 'Answer',
      reasoning: 'onetwo',
      reasoningDetails: [
        { type: 'reasoning.text', text: 'one', signature: 's1' },
        { type: 'reasoning.text', text: 'two', signature: 's2' },
      ],
      toolCalls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
      finishReason: 'tool_calls',
    });
    expect(blocks.map((b) => b.type === 'reasoning' ? `r:${b.text}` : b.type === 'text' ? `t:${b.text}` : `c:${b.name}`)).toEqual(['r:one', 'r:two', 't:Answer', 'c:f']);
  });

  it('uses the joined reasoning text when no details were kept', () => {
    expect(completionBlocks({ content: null, reasoning: 'why', finishReason: 'stop' })).toEqual([{ type: 'reasoning', text: 'why', details: [] }]);
  });
});
