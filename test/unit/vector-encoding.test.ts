// Vectors as OpenAI sends them with encoding_format=base64: little-endian float32, which its SDKs decode.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base64ToFloats,
  encodeVector,
  floatsToBase64,
  vectorLength,
} from '../../src/pipeline/embeddings/vector-encoding.js';

describe('float32 base64', () => {
  it('round-trips every float32 value, as the OpenAI SDK decodes it', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ noNaN: true }), { maxLength: 64 }), (values) => {
        const encoded = floatsToBase64(values);
        expect(base64ToFloats(encoded)).toEqual(values);
        // What the SDK does: Float32Array over the decoded bytes (little-endian hosts).
        expect([...new Float32Array(Uint8Array.from(Buffer.from(encoded, 'base64')).buffer)]).toEqual(values);
        expect(vectorLength(encoded)).toBe(values.length);
      }),
    );
  });

  it('gives each client the encoding it asked for, whatever the vendor sent', () => {
    expect(encodeVector([0.5, -2], 'float')).toEqual([0.5, -2]);
    expect(encodeVector([0.5, -2], 'base64')).toBe(Buffer.from(new Float32Array([0.5, -2]).buffer).toString('base64'));
    expect(encodeVector(floatsToBase64([0.25]), 'float')).toEqual([0.25]);
    expect(encodeVector('AACAPw==', 'base64')).toBe('AACAPw==');
  });
});
