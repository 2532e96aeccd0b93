// The native lane's splice of a request's top-level members: for any JSON object, however it is written (spacing,
// escapes, key order, duplicate keys), the spliced bytes parse to exactly the object with the edits applied, and the
// members not named keep their bytes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MalformedJsonObject, scanTopLevel, spliceTopLevel } from '../../../src/providers/native/top-level-members.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const parse = (buffer: Buffer) => JSON.parse(buffer.toString('utf8')) as Record<string, unknown>;

/** JSON text of `value` written with arbitrary spacing around structural characters. */
function spaced(value: unknown, space: (n: number) => string): string {
  let n = 0;
  const pad = () => space(n++);
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${pad()}${v.map((x) => `${write(x)}${pad()}`).join(`,${pad()}`)}]`;
    if (v !== null && typeof v === 'object') {
      return `{${pad()}${Object.entries(v)
        .map(([k, x]) => `${JSON.stringify(k)}${pad()}:${pad()}${write(x)}${pad()}`)
        .join(`,${pad()}`)}}`;
    }
    return JSON.stringify(v);
  };
  return write(value);
}

const whitespace = fc.array(fc.constantFrom('', ' ', '\n', '\t', '\r\n', '  '), { minLength: 1, maxLength: 64 });
const keys = fc.oneof(fc.string(), fc.constantFrom('model', 'provider', 'models', 'stream', 'a"b', 'é\u2028', 'x\\y'));
const objects = fc.dictionary(keys, fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 });

describe('spliceTopLevel', () => {
  it('parses to the object with the removals and sets applied, whatever the spacing (property)', () => {
    fc.assert(
      fc.property(
        objects,
        whitespace,
        fc.array(keys, { maxLength: 4 }),
        fc.dictionary(keys, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
        (object, spaces, remove, set) => {
          const raw = bytes(spaced(object, (n) => spaces[n % spaces.length]));
          const out = spliceTopLevel(raw, {
            remove,
            set: Object.fromEntries(Object.entries(set).map(([k, v]) => [k, JSON.stringify(v)])),
          });
          const expected: Record<string, unknown> = { ...object };
          for (const key of remove) delete expected[key];
          Object.assign(expected, set);
          // Through JSON, as the upstream reads it (-0 is written 0).
          expect(parse(out)).toEqual(JSON.parse(JSON.stringify(expected)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reads a duplicated key as JSON.parse does: the last one wins, and a set replaces it (property)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 2 }),
        fc.jsonValue({ maxDepth: 2 }),
        fc.jsonValue({ maxDepth: 2 }),
        (a, b, c) => {
          const raw = bytes(`{"k":${JSON.stringify(a)},"o":1,"k":${JSON.stringify(b)}}`);
          expect(parse(spliceTopLevel(raw, {}))).toEqual(JSON.parse(raw.toString()));
          expect(parse(spliceTopLevel(raw, { set: { k: JSON.stringify(c) } }))).toEqual(
            JSON.parse(JSON.stringify({ k: c, o: 1 })),
          );
          expect(parse(spliceTopLevel(raw, { remove: ['k'] }))).toEqual({ o: 1 });
        },
      ),
    );
  });

  it('keeps the bytes of every member it does not change', () => {
    const raw = bytes(
      '{ "model" : "openai/gpt-5.5", "input": [ {"type":"message", "content":"1.0e2 \\u00e9"} ], "n": 1.50 }',
    );
    const out = spliceTopLevel(raw, { set: { model: '"gpt-5.5"', store: 'false' }, remove: ['provider'] });
    expect(out.toString()).toBe(
      '{"model" : "gpt-5.5","input": [ {"type":"message", "content":"1.0e2 \\u00e9"} ],"n": 1.50,"store":false}',
    );
  });

  it('handles the empty object and multi-byte text', () => {
    expect(spliceTopLevel(bytes('{}'), { set: { model: '"m"' } }).toString()).toBe('{"model":"m"}');
    const raw = bytes('{"text":"日本語 🎉 \\"quoted\\" }{][","model":"x"}');
    expect(parse(spliceTopLevel(raw, { set: { model: '"y"' } }))).toEqual({
      text: '日本語 🎉 "quoted" }{][',
      model: 'y',
    });
  });

  it('ends a string at a quote after an even run of backslashes, and not after an odd one', () => {
    for (const run of [0, 1, 2, 3, 4, 7, 8]) {
      // The value's text: `run` backslashes, a quote when the run is odd (then escaped), and a brace.
      const value = `${'\\'.repeat(run)}${run % 2 === 1 ? '"' : ''}}`;
      const raw = bytes(`{"text":${JSON.stringify(value)},"model":"x"}`);
      expect(parse(spliceTopLevel(raw, { set: { model: '"y"' } }))).toEqual({ text: value, model: 'y' });
    }
  });

  it('refuses what is not a JSON object', () => {
    for (const text of ['[1,2]', '"s"', '{"a":1', '{"a" 1}', '{"a":1,}', '{"a":}', '{"a":"open\\"}']) {
      expect(() => scanTopLevel(bytes(text)), text).toThrow(MalformedJsonObject);
    }
  });
});
