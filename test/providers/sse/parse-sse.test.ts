import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSseParser, readSseBatches, readSseEvents } from '../../../src/providers/sse/parse-sse.js';
import type { SseEvent } from '../../../src/providers/adapter.js';

const encoder = new TextEncoder();

function parseAll(chunks: Array<Uint8Array | string>): SseEvent[] {
  const parser = createSseParser();
  const out: SseEvent[] = [];
  for (const chunk of chunks) out.push(...parser.push(chunk));
  out.push(...parser.end());
  return out;
}

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let previous = 0;
  for (const point of points) {
    parts.push(bytes.subarray(previous, point));
    previous = point;
  }
  parts.push(bytes.subarray(previous));
  return parts;
}

describe('createSseParser: explicit cases', () => {
  it('parses data lines, joins multi-line data with \\n and strips one leading space', () => {
    const events = parseAll(['data: first\ndata:  second\ndata:third\n\n']);
    expect(events).toEqual([{ data: 'first\n second\nthird' }]);
  });

  it('accepts \\r\\n, \\r and \\n line endings, also mixed', () => {
    expect(parseAll(['data: a\r\n\r\ndata: b\r\rdata: c\n\n'])).toEqual([{ data: 'a' }, { data: 'b' }, { data: 'c' }]);
  });

  it('treats a CRLF split across chunks as one line break', () => {
    expect(parseAll(['data: a\r', '\n', '\r', '\ndata: b\r', '\r'])).toEqual([{ data: 'a' }, { data: 'b' }]);
  });

  it('ignores comments, unknown fields and retry', () => {
    const events = parseAll([': OPENROUTER PROCESSING\n\nretry: 3000\nfoo: bar\ndata: x\n:comment\n\n']);
    expect(events).toEqual([{ data: 'x' }]);
  });

  it('does not dispatch events without data, and resets their event type', () => {
    expect(parseAll(['event: ping\n\ndata: y\n\n'])).toEqual([{ data: 'y' }]);
  });

  it('dispatches an event whose only data line is empty', () => {
    expect(parseAll(['data\n\ndata:\n\n'])).toEqual([{ data: '' }, { data: '' }]);
  });

  it('carries event type and keeps the last event id across events', () => {
    const events = parseAll(['event: error\nid: 7\ndata: {"a":1}\n\ndata: next\n\nid\ndata: cleared\n\n']);
    expect(events).toEqual([
      { event: 'error', id: '7', data: '{"a":1}' },
      { id: '7', data: 'next' },
      { data: 'cleared' },
    ]);
  });

  it('ignores an id containing NUL', () => {
    expect(parseAll(['id: 1\ndata: a\n\nid: x\u0000y\ndata: b\n\n'])).toEqual([
      { id: '1', data: 'a' },
      { id: '1', data: 'b' },
    ]);
  });

  it('decodes multi-byte UTF-8 split across chunks and strips one BOM', () => {
    const bytes = encoder.encode('\uFEFFdata: h\u00e9llo \u{1F600} \u4e16\n\n');
    const events = parseAll([...bytes].map((b) => Uint8Array.of(b)));
    expect(events).toEqual([{ data: 'h\u00e9llo \u{1F600} \u4e16' }]);
  });

  it('treats a field name without colon as a field with empty value', () => {
    expect(parseAll(['data\ndata\n\n'])).toEqual([{ data: '\n' }]);
  });

  it('discards an unterminated event at the end, per spec', () => {
    expect(parseAll(['data: complete\n\ndata: partial'])).toEqual([{ data: 'complete' }]);
    expect(parseAll(['data: partial\n'])).toEqual([]);
  });

  it('can dispatch an unterminated event on end when asked', () => {
    const parser = createSseParser({ dispatchIncompleteOnEnd: true });
    expect(parser.push('data: [DONE]')).toEqual([]);
    expect(parser.end()).toEqual([{ data: '[DONE]' }]);
  });

  it('returns events per push as soon as they are complete', () => {
    const parser = createSseParser();
    expect(parser.push('data: one\n')).toEqual([]);
    expect(parser.push('\ndata: two\n\nda')).toEqual([{ data: 'one' }, { data: 'two' }]);
    expect(parser.push('ta: three\n\n')).toEqual([{ data: 'three' }]);
    expect(parser.end()).toEqual([]);
    expect(parser.push('data: late\n\n')).toEqual([]);
  });

  it('handles one huge line fed in tiny chunks', () => {
    const big = 'x'.repeat(200_000);
    const text = `data: ${big}\n\n`;
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += 7) chunks.push(text.slice(i, i + 7));
    expect(parseAll(chunks)).toEqual([{ data: big }]);
  });
});

describe('readSseEvents', () => {
  it('yields events from an async byte stream', async () => {
    async function* body(): AsyncGenerator<Uint8Array> {
      yield encoder.encode('data: {"x":');
      yield encoder.encode('1}\n\ndata: [DONE]\n\n');
    }
    const seen: SseEvent[] = [];
    for await (const event of readSseEvents(body())) seen.push(event);
    expect(seen).toEqual([{ data: '{"x":1}' }, { data: '[DONE]' }]);
  });
});

describe('readSseBatches', () => {
  it('yields the events of each read together, as soon as that read completes them', async () => {
    const reads: string[] = [];
    async function* body(): AsyncGenerator<Uint8Array> {
      for (const text of ['data: a\n\ndata: b\n\ndata: c', '', '\n\n', 'data: d\n\ndata: e\n\n']) {
        reads.push(text);
        yield encoder.encode(text);
      }
    }
    const batches: { events: string[]; afterReads: number }[] = [];
    for await (const batch of readSseBatches(body()))
      batches.push({ events: batch.map((e) => e.data), afterReads: reads.length });
    // A read that completes nothing yields nothing; no batch waits for a later read.
    expect(batches).toEqual([
      { events: ['a', 'b'], afterReads: 1 },
      { events: ['c'], afterReads: 3 },
      { events: ['d', 'e'], afterReads: 4 },
    ]);
  });
});

describe('readSseBatches over a body that fails', () => {
  it('yields every event completed before the body failed, in order, then throws the failure', async () => {
    fc.assert(
      await fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.nat(),
        async (count, cuts, cutAt) => {
          const text = Array.from({ length: count }, (_, i) => `data: ${i}\n\n`).join('');
          const bytes = encoder.encode(text);
          const received = bytes.subarray(0, cutAt % (bytes.length + 1)); // what arrived before the connection failed
          async function* body(): AsyncGenerator<Uint8Array> {
            yield* splitAt(received, cuts);
            throw new Error('read ECONNRESET');
          }
          const seen: string[] = [];
          let failure: unknown;
          try {
            for await (const batch of readSseBatches(body())) seen.push(...batch.map((e) => e.data));
          } catch (err) {
            failure = err;
          }
          // An event counts as received once its blank line arrived.
          const complete = new TextDecoder().decode(received).split('\n\n').length - 1;
          expect(seen).toEqual(Array.from({ length: complete }, (_, i) => String(i)));
          expect(failure).toMatchObject({ message: 'read ECONNRESET' });
        },
      ),
      { numRuns: 200 },
    );
  });
});

// Any value without line breaks; fast-check's 'binary' unit yields whole code points (no lone surrogates).
const lineValue = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !/[\r\n]/.test(s));
const lineEnding = fc.constantFrom('\n', '\r\n', '\r');

const eventArb = fc.record(
  {
    event: lineValue,
    id: lineValue.filter((s) => !s.includes('\u0000')),
    dataLines: fc.array(lineValue, { minLength: 1, maxLength: 4 }),
    comment: lineValue,
  },
  { requiredKeys: ['dataLines'] },
);

describe('createSseParser: property', () => {
  it('yields the same events for any split of the serialized bytes', () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { maxLength: 8 }),
        fc.array(lineEnding, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        (events, endings, bom, cuts) => {
          let n = 0;
          let previous = '';
          // A lone CR followed by an LF would read as one CRLF break, so never emit that pair.
          const eol = (): string => {
            let next = endings[n++ % endings.length];
            if (previous === '\r' && next === '\n') next = '\r';
            previous = next;
            return next;
          };
          let text = bom ? '\uFEFF' : '';
          const expected: SseEvent[] = [];
          let lastId = '';
          for (const e of events) {
            if (e.comment !== undefined) text += `:${e.comment}${eol()}`;
            if (e.event !== undefined) text += `event: ${e.event}${eol()}`;
            if (e.id !== undefined) {
              text += `id: ${e.id}${eol()}`;
              lastId = e.id;
            }
            for (const line of e.dataLines) text += `data: ${line}${eol()}`;
            text += eol();
            const want: SseEvent = { data: e.dataLines.join('\n') };
            if (e.event) want.event = e.event;
            if (lastId) want.id = lastId;
            expected.push(want);
          }
          const parsed = parseAll(splitAt(encoder.encode(text), cuts));
          expect(parsed).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
