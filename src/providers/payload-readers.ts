// Narrow readers for vendor JSON. Vendor payloads are untrusted input: every field is checked for its type
// where it is read, and a wrong type reads as absent instead of leaking `any` into the gateway.
export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A non-negative token count; vendors occasionally send floats or numeric strings. */
export function readCount(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.round(n) : undefined;
}

export function readRecord(value: unknown): JsonRecord | undefined {
  return isRecord(value) ? value : undefined;
}

export function readArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** A vendor error body as JSON when it is JSON, else its trimmed text (proxies answer HTML or plain text). */
export function decodeErrorBody(body: unknown): unknown {
  if (body instanceof Uint8Array) body = new TextDecoder().decode(body);
  if (typeof body !== 'string') return body;
  const text = body.trim();
  if (text.startsWith('{') || text.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch {
      // not JSON after all: the text itself is the message
    }
  }
  return text;
}
