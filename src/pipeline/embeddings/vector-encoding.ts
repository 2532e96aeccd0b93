// Vectors as the client asked for them: numbers, or base64 of little-endian float32 values (OpenAI's `base64`, which
// its SDKs request and decode). Written with explicit little-endian reads and writes, whatever the host's byte order.
import type { EmbeddingVector } from '../../core/embedding.js';

export function floatsToBase64(vector: readonly number[]): string {
  const bytes = Buffer.allocUnsafe(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes.toString('base64');
}

/** The numbers of a base64 vector (float32, so each is the float32 value the vendor sent, widened). */
export function base64ToFloats(encoded: string): number[] {
  const bytes = Buffer.from(encoded, 'base64');
  const out = new Array<number>(bytes.length >> 2);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

export function encodeVector(vector: EmbeddingVector, encoding: 'float' | 'base64'): number[] | string {
  if (encoding === 'base64') return typeof vector === 'string' ? vector : floatsToBase64(vector);
  return typeof vector === 'string' ? base64ToFloats(vector) : vector;
}

/** How many numbers a vector has (a base64 one: its float32 count). */
export function vectorLength(vector: EmbeddingVector): number {
  return typeof vector === 'string' ? Buffer.byteLength(vector, 'base64') >> 2 : vector.length;
}
