// Pulls the fields of a Google API error out of a body: `{error: {code, message, status, details}}`
// (https://ai.google.dev/gemini-api/docs/troubleshooting). streamGenerateContent without `alt=sse` wraps it in
// an array, and proxies in front of the API may answer plain text or HTML; none of that throws here.
import { isRecord, readArray, readRecord, readString, decodeErrorBody } from '../payload-readers.js';

export interface GeminiError {
  /** HTTP-like code inside the body (400, 429, 500 ...). */
  code?: number;
  /** Canonical status: INVALID_ARGUMENT, RESOURCE_EXHAUSTED, ... */
  status?: string;
  message?: string;
  /** `ErrorInfo.reason` values from `details`, e.g. API_KEY_INVALID. */
  reasons: string[];
  /** `RetryInfo.retryDelay` in seconds, when the API said how long to wait. */
  retryDelaySeconds?: number;
}

const MAX_MESSAGE = 1000;

/** Protobuf Duration JSON: "34.4s" → 35 (rounded up so a client never retries early). */
function durationSeconds(value: unknown): number | undefined {
  const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(value.trim()) : null;
  return match ? Math.ceil(Number(match[1])) : undefined;
}

export function readGeminiError(body: unknown): GeminiError {
  const decoded = decodeErrorBody(body);
  const first = Array.isArray(decoded) ? decoded[0] : decoded;
  const out: GeminiError = { reasons: [] };
  if (typeof first === 'string') {
    if (first !== '' && !first.startsWith('<')) out.message = first.slice(0, MAX_MESSAGE);
    return out;
  }
  const error = readRecord(readRecord(first)?.error);
  if (!error) return out;
  if (typeof error.code === 'number' && Number.isInteger(error.code)) out.code = error.code;
  out.status = readString(error.status);
  const message = readString(error.message);
  if (message) out.message = message.slice(0, MAX_MESSAGE);
  for (const detail of readArray(error.details) ?? []) {
    if (!isRecord(detail)) continue;
    const reason = readString(detail.reason);
    if (reason) out.reasons.push(reason);
    const delay = durationSeconds(detail.retryDelay);
    if (delay !== undefined) out.retryDelaySeconds = delay;
  }
  return out;
}
