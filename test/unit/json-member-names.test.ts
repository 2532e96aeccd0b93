// Duplicate member names: the counting fast path agrees with the parsed value exactly when no object repeats a name,
// whatever the strings hold (escaped quotes, backslash runs, colons, JSON text inside strings), and the finder names
// the first repeat by its path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countMemberNames, firstDuplicateMember } from '../../src/http/json-member-names.js';
import { jsonShape } from '../../src/http/json-depth.js';

const members = (text: string) => jsonShape(JSON.parse(text), 1_000).members;

describe('countMemberNames', () => {
  it.each([
    ['{}', 0],
    ['[]', 0],
    ['"a:b"', 0],
    ['{"a":1,"b":{"c":[1,{"d":null}]}}', 4],
    ['{ "a" :\n\t1 , "b"\r\n:"x" }', 2],
    ['{"a":"\\":","b\\\\":"\\\\","c":"{\\"x\\":1}"}', 3],
    ['[":", "\\"", {"k":":"}]', 1],
    ['{":":1,"a,":2,"[":3,"{":{"":4}," ":5}', 6],
    ['{"a\\"":":","b\\\\":1}', 2],
    ['":"', 0],
  ])('%s has %i members', (text, count) => {
    expect(countMemberNames(text)).toBe(count);
    expect(members(text)).toBe(count);
  });

  it('equals the parsed member count for any JSON value without repeats (and JSON.stringify never repeats)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(countMemberNames(text)).toBe(members(text));
        expect(firstDuplicateMember(text)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('is exact for strings made of the characters that make a quote ambiguous', () => {
    const tricky = fc.string({ unit: fc.constantFrom('"', '\\', ':', ',', '[', '{', ' ', 'a') });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        tricky,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(tricky, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.boolean(), (v, pretty) => {
        const text = JSON.stringify(v, null, pretty ? 1 : undefined);
        expect(countMemberNames(text)).toBe(members(text));
      }),
      { numRuns: 1_000 },
    );
  });

  it('exceeds the parsed count for repeats written with such characters and any spacing', () => {
    const tricky = fc.string({ unit: fc.constantFrom('"', '\\', ':', ',', '[', '{', ' ', 'a') });
    const space = fc.constantFrom('', ' ', '\n ');
    fc.assert(
      fc.property(tricky, tricky, tricky, space, space, (name, first, second, s1, s2) => {
        const key = JSON.stringify(name);
        const text = `{${key}${s1}:${s2}${JSON.stringify(first)},${s2}${key}${s1}:${JSON.stringify([second])}}`;
        expect(countMemberNames(text)).toBeGreaterThan(members(text));
        expect(firstDuplicateMember(text)?.name).toBe(name);
      }),
      { numRuns: 1_000 },
    );
  });

  it('exceeds the parsed count whenever an object repeats a name', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.string().filter((name) => name !== 'z'),
        (value, name) => {
          const key = JSON.stringify(name);
          const v = JSON.stringify(value);
          const text = `{"v":${v},"w":[{${key}:${v},"z":${v},${key}:2}]}`;
          expect(countMemberNames(text)).toBeGreaterThan(members(text));
          expect(firstDuplicateMember(text)).toEqual({ name, field: expect.stringMatching(/^w\[0\]/) });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('firstDuplicateMember', () => {
  it.each([
    ['{"a":1,"a":2}', 'a', 'a'],
    ['{"a":{"b":1},"c":[0,1,{"d":{"e":1,"e":2}}]}', 'e', 'c[2].d.e'],
    ['[{"x":1},{"x":1,"y":{"x":1},"x":2}]', 'x', '[1].x'],
    ['{"tools":[{"type":"web_search","max_uses":1,"max_uses":50}]}', 'max_uses', 'tools[0].max_uses'],
    ['{"a b":{"c-d":1,"c-d":2}}', 'c-d', '["a b"]["c-d"]'],
    ['{"\\u0061":1,"a":2}', 'a', 'a'],
  ])('%s repeats %s at %s', (text, name, field) => {
    expect(firstDuplicateMember(text)).toEqual({ name, field });
  });

  it('the same name in sibling or nested objects is no repeat', () => {
    expect(firstDuplicateMember('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}')).toBeUndefined();
  });
});
