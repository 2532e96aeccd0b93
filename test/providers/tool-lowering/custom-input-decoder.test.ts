import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CustomInputDecoder, decodeWhole } from '../../../src/providers/tool-lowering/custom-input-decoder.js';

function pieces(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let previous = 0;
  for (const point of [...points, text.length]) {
    out.push(text.slice(previous, point));
    previous = point;
  }
  return out;
}

describe('custom tool input decoder', () => {
  it('streams the raw text of {"input": ...} as its fragments arrive, escapes resolved', () => {
    const decoder = new CustomInputDecoder();
    const got = ['{"in', 'put": "*** Begin Patch\\n*** Add', ' File: a.txt\\n+h\\u00e9\\"', '\\n*** End Patch"}'].map(
      (f) => decoder.push(f),
    );
    expect(got).toEqual(['', '*** Begin Patch\n*** Add', ' File: a.txt\n+hé"', '\n*** End Patch']);
    expect(decoder.end()).toBe('');
  });

  it('any text, its JSON cut anywhere, decodes to the text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        const decoder = new CustomInputDecoder();
        const json = JSON.stringify({ input: text });
        const out =
          pieces(json, cuts)
            .map((p) => decoder.push(p))
            .join('') + decoder.end();
        expect(out).toBe(text);
      }),
    );
  });

  it('arguments of another shape are given whole at the end: the first string property, else the text', () => {
    const decoder = new CustomInputDecoder();
    expect(decoder.push('{"patch": "x y"}')).toBe('');
    expect(decoder.end()).toBe('x y');
    expect(decodeWhole('not json')).toBe('not json');
    expect(decodeWhole('{"input":"a\\nb"}')).toBe('a\nb');
  });
});
