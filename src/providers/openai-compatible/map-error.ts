// Vendor HTTP errors → the gateway's error table. The client must learn what it can fix (400, 404, 429)
// and nothing about the gateway's own vendor account: credential, billing and outage failures become
// 502/503 with the gateway's own wording.
import type { ErrorAnswer, ErrorSource, UpstreamErrorInfo } from '../adapter.js';
import type { StreamErrorCode } from '../../core/generation.js';
import { parseRetryAfter } from '../parse-retry-after.js';
import { readVendorError, redactVendorMessage, type VendorError } from './read-vendor-error.js';

const CONTEXT_CODES = new Set([
  'context_length_exceeded',
  'string_above_max_length_context',
  'context_window_exceeded',
]);
const CONTEXT_TEXT =
  /maximum context length|context[ _-]length|context window|prompt is too long|reduce the length|input is too long|too many input tokens/i;
const FILTER_CODES = new Set(['content_filter', 'content_policy_violation', 'content_filtered', 'moderation_blocked']);
const FILTER_TEXT = /content (management )?policy|content filter|safety (system|filter)|flagged by|moderation/i;
const MODEL_CODES = new Set(['model_not_found']);
const MODEL_TEXT =
  /model[^.]*\b(not found|does not exist|not exist|unknown|no such|is not available|not supported)|(unknown|invalid|no such) model/i;

function isContextLength(error: VendorError): boolean {
  return (
    CONTEXT_CODES.has(error.code ?? '') || CONTEXT_CODES.has(error.type ?? '') || CONTEXT_TEXT.test(error.message ?? '')
  );
}

function isContentFilter(error: VendorError): boolean {
  return (
    FILTER_CODES.has(error.code ?? '') || FILTER_CODES.has(error.type ?? '') || FILTER_TEXT.test(error.message ?? '')
  );
}

function isUnknownModel(error: VendorError): boolean {
  return MODEL_CODES.has(error.code ?? '') || MODEL_TEXT.test(error.message ?? '');
}

function clientMessage(error: VendorError, fallback: string): string {
  return error.message ? redactVendorMessage(error.message) : fallback;
}

/** The endpoints the generation lanes call; what a 404 that names no model blames. */
const GENERATION_ENDPOINTS = 'chat completions or, on the native Responses lane, responses';

/**
 * `endpoint`: the upstream endpoint that was called, as a 404 that names no model should name it (the embeddings
 * adapter passes "embeddings").
 */
export function mapError(
  { status, body, headers = {} }: ErrorAnswer,
  { providerId = 'upstream', now = Date.now(), endpoint = GENERATION_ENDPOINTS }: ErrorSource = {},
): UpstreamErrorInfo {
  const error = readVendorError(body);
  const upstreamCode =
    error.code ?? error.type ?? (error.numericCode !== undefined ? String(error.numericCode) : undefined);
  const who = `Upstream provider ${providerId}`;
  const info = (s: number, message: string, streamCode: StreamErrorCode): UpstreamErrorInfo => {
    const out: UpstreamErrorInfo = { status: s, message, streamCode };
    if (upstreamCode !== undefined) out.upstreamCode = upstreamCode;
    return out;
  };

  // Context-length and content-filter failures are the client's to fix whatever status the vendor chose.
  if (status >= 400 && status < 500 && status !== 429 && isContextLength(error)) {
    return info(
      400,
      clientMessage(error, "The request exceeds the model's context length."),
      'context_length_exceeded',
    );
  }
  if (status >= 400 && status < 500 && status !== 429 && isContentFilter(error)) {
    return info(
      400,
      clientMessage(error, "The request was blocked by the provider's content filter."),
      'content_filter',
    );
  }
  switch (status) {
    case 400:
    case 413:
    case 422:
      return info(400, clientMessage(error, `${who} rejected the request as invalid.`), 'server_error');
    case 401:
    case 403:
      return info(
        502,
        `${who} rejected the gateway's credentials (HTTP ${status}); the operator must fix the provider key.`,
        'server_error',
      );
    case 402:
      return info(
        502,
        `${who} refused the request for billing reasons (HTTP 402) on the gateway's account.`,
        'server_error',
      );
    case 404:
      return isUnknownModel(error)
        ? info(404, clientMessage(error, 'The model is not available at the upstream provider.'), 'server_error')
        : info(
            502,
            `${who} answered 404 for the endpoint (${endpoint}): check its base URL, and that it serves that endpoint.`,
            'server_error',
          );
    case 408:
      return info(502, `${who} timed out.`, 'server_error');
    case 429: {
      // OpenAI uses 429 for an exhausted account quota too; retrying will not help the client.
      if (error.code === 'insufficient_quota' || error.type === 'insufficient_quota') {
        return info(502, `${who} quota of the gateway's account is exhausted.`, 'server_error');
      }
      const limited = info(429, `${who} rate limit reached; retry later.`, 'rate_limit');
      const retryAfter = parseRetryAfter(headers, now);
      if (retryAfter !== undefined) limited.retryAfterSeconds = retryAfter;
      return limited;
    }
    case 503:
    case 529:
      return info(503, `${who} is temporarily unavailable (HTTP ${status}).`, 'server_error');
    default:
      return info(502, `${who} failed (HTTP ${status}).`, 'server_error');
  }
}

/**
 * An error object sent with HTTP 200: in a JSON body or inside a stream (`data: {"error": {...}}`).
 * Its numeric code, when it has one (OpenRouter, Gemini), stands in for the HTTP status; otherwise a
 * mid-stream failure counts as 502-class unless its text says context length or content filter.
 */
export function mapEmbeddedError(
  payload: unknown,
  providerId = 'upstream',
  now: number = Date.now(),
): UpstreamErrorInfo {
  const error = readVendorError(payload);
  const code = error.numericCode;
  let status = code !== undefined && code >= 400 && code <= 599 ? code : 502;
  if (status === 502 && (isContextLength(error) || isContentFilter(error))) status = 400;
  if (status === 502 && (error.code === 'rate_limit_exceeded' || error.type === 'rate_limit_exceeded')) status = 429;
  const info = mapError({ status, body: payload }, { providerId, now });
  // In a stream the vendor's own text is the most useful thing to show, minus account details.
  if (error.message && info.status >= 500) info.message = `${info.message} ${redactVendorMessage(error.message)}`;
  return info;
}
