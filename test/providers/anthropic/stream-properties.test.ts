// Property: any well-formed Anthropic event stream, cut into arbitrary byte chunks, yields well-formed
// StreamEvents: one finish, the vendor's text, reasoning and tool-call JSON reassembled exactly, signed
// reasoning details in block order, and usage exactly when the vendor reported it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createStreamTranslator } from '../../../src/providers/anthropic/index.js';
import { collect, replay } from '../../helpers/stream-replay.js';

type Block =
  | { kind: 'text'; chunks: string[] }
  | { kind: 'thinking'; chunks: string[]; signature: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; id: string; name: string; fragments: string[] };

interface Message {
  blocks: Block[];
  pings: number[];
  stopReason: string;
  startUsage?: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens: number;
  };
  finalOutput?: number;
}

/** Splits a string into 1..4 consecutive pieces (possibly empty ones, as Anthropic's first input_json_delta is). */
const pieces = (s: string): fc.Arbitrary<string[]> =>
  fc.array(fc.integer({ min: 0, max: s.length }), { maxLength: 3 }).map((cuts) => {
    const points = [0, ...cuts.sort((a, b) => a - b), s.length];
    return points.slice(1).map((end, i) => s.slice(points[i], end));
  });

const text = fc.string({ maxLength: 20, unit: 'grapheme' });
const block: fc.Arbitrary<Block> = fc.oneof(
  fc.array(text, { maxLength: 4 }).map((chunks): Block => ({ kind: 'text', chunks })),
  fc
    .record({ chunks: fc.array(text, { maxLength: 4 }), signature: fc.base64String({ minLength: 4, maxLength: 40 }) })
    .map((b): Block => ({ kind: 'thinking', ...b })),
  fc.base64String({ minLength: 4, maxLength: 40 }).map((data): Block => ({ kind: 'redacted', data })),
  fc
    .record({
      id: fc.stringMatching(/^toolu_[A-Za-z0-9]{4,12}$/),
      name: fc.constantFrom('get_weather', 'lookup'),
      input: fc.option(
        fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 }),
        { nil: undefined },
      ),
    })
    .chain(({ id, name, input }) =>
      (input ? pieces(JSON.stringify(input)) : fc.constant([] as string[])).map(
        (fragments): Block => ({ kind: 'tool', id, name, fragments }),
      ),
    ),
);
const message: fc.Arbitrary<Message> = fc.record(
  {
    blocks: fc.array(block, { maxLength: 5 }),
    pings: fc.array(fc.nat({ max: 30 }), { maxLength: 3 }),
    stopReason: fc.constantFrom('end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'refusal', 'pause_turn'),
    startUsage: fc.record({
      input_tokens: fc.nat(5000),
      output_tokens: fc.nat(3),
      cache_read_input_tokens: fc.nat(5000),
      cache_creation_input_tokens: fc.nat(5000),
    }),
    finalOutput: fc.nat(5000),
  },
  { requiredKeys: ['blocks', 'pings', 'stopReason'] },
);

function sse(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function vendorEvents(m: Message): string[] {
  const events = [
    sse('message_start', {
      message: {
        id: 'msg_prop',
        type: 'message',
        role: 'assistant',
        content: [],
        stop_reason: null,
        ...(m.startUsage ? { usage: m.startUsage } : {}),
      },
    }),
  ];
  m.blocks.forEach((b, index) => {
    const deltas: Record<string, unknown>[] = [];
    let start: Record<string, unknown>;
    switch (b.kind) {
      case 'text':
        start = { type: 'text', text: '' };
        for (const t of b.chunks) deltas.push({ type: 'text_delta', text: t });
        break;
      case 'thinking':
        start = { type: 'thinking', thinking: '', signature: '' };
        for (const t of b.chunks) deltas.push({ type: 'thinking_delta', thinking: t });
        deltas.push({ type: 'signature_delta', signature: b.signature });
        break;
      case 'redacted':
        start = { type: 'redacted_thinking', data: b.data };
        break;
      case 'tool':
        start = { type: 'tool_use', id: b.id, name: b.name, input: {} };
        for (const f of b.fragments) deltas.push({ type: 'input_json_delta', partial_json: f });
        break;
    }
    events.push(sse('content_block_start', { index, content_block: start }));
    for (const delta of deltas) events.push(sse('content_block_delta', { index, delta }));
    events.push(sse('content_block_stop', { index }));
  });
  events.push(
    sse('message_delta', {
      delta: { stop_reason: m.stopReason, stop_sequence: null },
      ...(m.finalOutput !== undefined ? { usage: { output_tokens: m.finalOutput } } : {}),
    }),
  );
  events.push(sse('message_stop', {}));
  for (const at of m.pings) events.splice(1 + (at % events.length), 0, sse('ping', {}));
  return events;
}

const FINISH: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};
const bytesOf = (events: string[]) => new TextEncoder().encode(events.join(''));
const cutsOf = fc.array(fc.nat({ max: 100_000 }), { maxLength: 8 });

describe('property: Anthropic event stream → StreamEvents', () => {
  it('complete streams: one finish, exact text/reasoning/arguments, details in order, usage iff reported', () => {
    fc.assert(
      fc.property(message, cutsOf, (m, cuts) => {
        const events = replay(bytesOf(vendorEvents(m)), createStreamTranslator(), cuts);
        const got = collect(events);
        expect(got.errors).toEqual([]);
        expect(got.ids).toEqual(['msg_prop']);
        expect(got.finishes).toEqual([FINISH[m.stopReason]]);
        const of = <K extends Block['kind']>(kind: K) =>
          m.blocks.filter((b): b is Extract<Block, { kind: K }> => b.kind === kind);
        expect(got.content).toBe(
          of('text')
            .map((b) => b.chunks.join(''))
            .join(''),
        );
        expect(got.reasoning).toBe(
          of('thinking')
            .map((b) => b.chunks.join(''))
            .join(''),
        );
        expect(got.toolCalls).toEqual(
          of('tool').map((b) => ({ id: b.id, name: b.name, arguments: b.fragments.join('') || '{}' })),
        );
        const details = m.blocks
          .filter((b) => b.kind === 'thinking' || b.kind === 'redacted')
          .map((b, index) =>
            b.kind === 'thinking'
              ? {
                  type: 'reasoning.text',
                  text: b.chunks.join(''),
                  signature: b.signature,
                  format: 'anthropic-claude-v1',
                  index,
                }
              : {
                  type: 'reasoning.encrypted',
                  data: (b as { data: string }).data,
                  format: 'anthropic-claude-v1',
                  index,
                },
          );
        expect(got.reasoningDetails).toEqual(details);
        if (m.startUsage || m.finalOutput !== undefined) {
          const s = m.startUsage ?? {
            input_tokens: 0,
            output_tokens: 0,
            cache_read_input_tokens: 0,
            cache_creation_input_tokens: 0,
          };
          expect(got.usages).toEqual([
            {
              promptTokens: s.input_tokens + s.cache_read_input_tokens + s.cache_creation_input_tokens,
              completionTokens: m.finalOutput ?? s.output_tokens,
              cachedTokens: s.cache_read_input_tokens,
              cacheWriteTokens: s.cache_creation_input_tokens,
              reasoningTokens: 0,
            },
          ]);
        } else {
          expect(got.usages).toEqual([]);
        }
        // Every tool call starts once, with its index, id and name.
        const starts = events.flatMap((e) => (e.type === 'tool-call-start' ? [e] : []));
        expect(starts.map((c) => [c.index, c.kind, c.name])).toEqual(of('tool').map((b, i) => [i, 'function', b.name]));
      }),
      { numRuns: 300 },
    );
  });

  it('streams cut short: at most one finish, and no finish without message_delta means exactly one error at the end', () => {
    fc.assert(
      fc.property(message, fc.nat(), cutsOf, (m, keepRaw, cuts) => {
        const all = vendorEvents(m);
        const kept = all.slice(0, keepRaw % all.length);
        const events = replay(bytesOf(kept), createStreamTranslator(), cuts);
        const got = collect(events);
        expect(got.finishes.length).toBeLessThanOrEqual(1);
        expect(got.finishes.length + got.errors.length).toBe(1);
        if (got.errors.length === 1) expect(events.at(-1)?.type).toBe('error');
        const sawStop = kept.some((e) => e.startsWith('event: message_delta'));
        expect(got.finishes.length).toBe(sawStop ? 1 : 0);
      }),
      { numRuns: 200 },
    );
  });
});
