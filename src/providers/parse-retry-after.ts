// Retry hints of a 429: `retry-after-ms` (OpenAI, more precise) or `retry-after` as delta-seconds or an
// HTTP date (RFC 9110 §10.2.3). Returned as whole seconds, rounded up so a client never retries early.
type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.trim() !== '') return first.trim();
  }
  return undefined;
}

export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms) / 1000);
  const value = header(headers, 'retry-after');
  if (value === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
