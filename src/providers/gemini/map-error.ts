// Gemini errors → the gateway's error table, by HTTP status and the body's canonical status
// (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes). What the client can fix stays a 4xx
// with Gemini's explanation (400 INVALID_ARGUMENT, an over-long prompt, 404 for a model Gemini does not
// serve, 429); what only the operator can fix (API key, billing, region, permissions) and Gemini's own
// failures become 502, overload 503, all in the gateway's words.
import type { ErrorAnswer, ErrorSource, UpstreamErrorInfo } from '../adapter.js';
import type { StreamErrorCode } from '../../core/generation.js';
import { parseRetryAfter } from '../parse-retry-after.js';
import { readGeminiError, type GeminiError } from './read-gemini-error.js';
import { RPC_STATUS_CODES } from '../../core/google-rpc-status.js';

type Headers = Record<string, string | string[] | undefined>;

/** "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)." and kin. */
const TOKEN_LIMIT =
  /input token count|exceeds the maximum number of tokens|maximum number of tokens allowed|context (length|window)|too many tokens|prompt is too long/i;
const KEY_REASONS = new Set([
  'API_KEY_INVALID',
  'API_KEY_EXPIRED',
  'API_KEY_SERVICE_BLOCKED',
  'API_KEY_HTTP_REFERRER_BLOCKED',
  'API_KEY_IP_ADDRESS_BLOCKED',
]);
const KEY_TEXT = /API key (not valid|expired|is invalid)|API_KEY_INVALID/i;
const MODEL_TEXT = /models?\/[^ ]+ is not found|model[^.]*\b(not found|is not supported|does not exist)/i;

/**
 * Google's text as a client may read it: without what names the operator's Google account. Keys in Gemini's "AIza..."
 * format would name the credential; `projects/<number>` (a `consumer`), "project 123456789" and quota metric names
 * (`generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count`) name the operator's project and
 * tier (a URL's path is left alone). Google's `details` never reach a client at all.
 */
export function redactGoogleText(message: string): string {
  return message
    .replace(/AIza[0-9A-Za-z_-]{10,}/g, 'AIza***')
    .replace(/\bprojects\/[\w-]+/g, 'projects/[redacted]')
    .replace(/\b(project(?:[ _]number)?[\s:='"]*)\d{4,}/gi, '$1[redacted]')
    .replace(/\b(?:[a-z][\w-]*\.)+googleapis\.com\/[a-z0-9_]+(?![\w/.])/gi, '[quota metric]');
}

function mapKnown(
  { status, error, headers }: { status: number; error: GeminiError; headers: Headers },
  { providerId = 'google', now = Date.now(), endpoint = 'generateContent' }: ErrorSource,
): UpstreamErrorInfo {
  const who = `Upstream provider ${providerId}`;
  const upstreamCode = error.status ?? (error.code !== undefined ? String(error.code) : undefined);
  const info = (s: number, message: string, streamCode: StreamErrorCode): UpstreamErrorInfo => {
    const out: UpstreamErrorInfo = { status: s, message, streamCode };
    if (upstreamCode !== undefined) out.upstreamCode = upstreamCode;
    return out;
  };
  const vendorText = (fallback: string) => (error.message ? redactGoogleText(error.message) : fallback);
  const isKeyProblem = error.reasons.some((r) => KEY_REASONS.has(r)) || KEY_TEXT.test(error.message ?? '');

  if (isKeyProblem || status === 401 || status === 403) {
    return info(
      502,
      `${who} rejected the gateway's credentials (HTTP ${status}); the operator must fix the provider key.`,
      'server_error',
    );
  }
  if (status === 400 || status === 413 || status === 422) {
    if (TOKEN_LIMIT.test(error.message ?? ''))
      return info(400, vendorText("The request exceeds the model's context length."), 'context_length_exceeded');
    // FAILED_PRECONDITION: billing not enabled, free tier unavailable in the region: the operator's account.
    if (error.status === 'FAILED_PRECONDITION')
      return info(
        502,
        `${who} cannot serve the gateway's account (FAILED_PRECONDITION); the operator must check billing and region.`,
        'server_error',
      );
    return info(400, vendorText(`${who} rejected the request as invalid.`), 'server_error');
  }
  if (status === 404) {
    return MODEL_TEXT.test(error.message ?? '')
      ? info(404, vendorText('The model is not available at the upstream provider.'), 'server_error')
      : info(
          502,
          `${who} answered 404 for the ${endpoint} endpoint: check its base URL, and that it serves that endpoint.`,
          'server_error',
        );
  }
  if (status === 429) {
    const limited = info(429, `${who} rate limit reached; retry later.`, 'rate_limit');
    const retryAfter = parseRetryAfter(headers, now) ?? error.retryDelaySeconds;
    if (retryAfter !== undefined) limited.retryAfterSeconds = retryAfter;
    return limited;
  }
  if (status === 503) return info(503, `${who} is temporarily unavailable or overloaded (HTTP 503).`, 'server_error');
  if (status === 504) return info(502, `${who} timed out (DEADLINE_EXCEEDED).`, 'server_error');
  return info(502, `${who} failed (HTTP ${status}).`, 'server_error');
}

/** `endpoint`: the method that was called, as a 404 that names no model should name it (generateContent, embedContent). */
export function mapGeminiError(
  { status, body, headers = {} }: ErrorAnswer,
  source: ErrorSource = {},
): UpstreamErrorInfo {
  return mapKnown({ status, error: readGeminiError(body), headers }, source);
}

/**
 * An error object inside a 200 stream (`data: {"error": {...}}`): its code, or its canonical status, stands
 * in for the HTTP status. For server-side failures Gemini's own text is appended, since the client has no
 * other way to learn what happened mid-stream.
 */
export function mapGeminiEmbeddedError(
  payload: unknown,
  providerId = 'google',
  now: number = Date.now(),
): UpstreamErrorInfo {
  const error = readGeminiError(payload);
  const fromCode = error.code !== undefined && error.code >= 400 && error.code <= 599 ? error.code : undefined;
  const status = fromCode ?? RPC_STATUS_CODES[error.status ?? ''] ?? 500;
  const info = mapKnown({ status, error, headers: {} }, { providerId, now });
  if (error.message && info.status >= 500) info.message = `${info.message} ${redactGoogleText(error.message)}`;
  return info;
}
