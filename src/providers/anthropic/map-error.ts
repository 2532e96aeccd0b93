// Anthropic HTTP errors and in-stream error events → the gateway's error table, with the same rules as
// the OpenAI-compatible adapter: the client learns what it can fix (400, 404, 429) and nothing about the
// gateway's own Anthropic account, whose failures (key, billing, spend limits) become 502.
import type { ErrorAnswer, ErrorSource, UpstreamErrorInfo } from '../adapter.js';
import type { StreamErrorCode } from '../../core/generation.js';
import { parseRetryAfter } from '../parse-retry-after.js';
import { readAnthropicError, redactMessage, STATUS_OF_TYPE, type AnthropicError } from './read-error.js';

// "prompt is too long: 208310 tokens > 200000 maximum";
// "input length and `max_tokens` exceed context limit: 198000 + 21333 > 200000, ...".
const CONTEXT_TEXT = /prompt is too long|context limit|context window|context length/i;
// Account-level refusals Anthropic reports as 400 or 429: credit balance, workspace/org usage limits.
const ACCOUNT_TEXT = /credit balance|usage limit|spend limit|billing/i;

function isAccountProblem(error: AnthropicError): boolean {
  return (
    error.type === 'billing_error' ||
    error.detailCode === 'enforced_spend_limit_reached' ||
    ACCOUNT_TEXT.test(error.message ?? '')
  );
}

export function mapError(
  { status, body, headers = {} }: ErrorAnswer,
  { providerId = 'anthropic', now = Date.now() }: ErrorSource = {},
): UpstreamErrorInfo {
  const error = readAnthropicError(body);
  const who = `Upstream provider ${providerId}`;
  const info = (s: number, message: string, streamCode: StreamErrorCode = 'server_error'): UpstreamErrorInfo => {
    const out: UpstreamErrorInfo = { status: s, message, streamCode };
    if (error.type !== undefined) out.upstreamCode = error.type;
    return out;
  };
  const vendorText = (fallback: string): string => (error.message ? redactMessage(error.message) : fallback);

  if (status >= 400 && status < 500 && status !== 429 && CONTEXT_TEXT.test(error.message ?? '')) {
    return info(400, vendorText("The request exceeds the model's context window."), 'context_length_exceeded');
  }
  if (status >= 400 && status < 500 && isAccountProblem(error)) {
    return info(
      502,
      `${who} refused the request because of billing or usage limits on the gateway's account (HTTP ${status}).`,
    );
  }
  switch (status) {
    case 400:
    case 413:
    case 422:
      return info(400, vendorText(`${who} rejected the request as invalid.`));
    case 401:
    case 403:
      return info(
        502,
        `${who} rejected the gateway's credentials (HTTP ${status}); the operator must fix the provider key.`,
      );
    case 404:
      // Anthropic answers 404 not_found_error "model: <name>" for unknown models; anything else is a wrong base URL.
      return error.type === 'not_found_error' && /model/i.test(error.message ?? '')
        ? info(404, vendorText('The model is not available at the upstream provider.'))
        : info(502, `${who} answered 404 for the messages endpoint.`);
    case 408:
    case 504:
      return info(502, `${who} timed out (HTTP ${status}).`);
    case 429: {
      const limited = info(429, `${who} rate limit reached; retry later.`, 'rate_limit');
      const retryAfter = parseRetryAfter(headers, now);
      if (retryAfter !== undefined) limited.retryAfterSeconds = retryAfter;
      return limited;
    }
    case 503:
    case 529:
      return info(503, `${who} is temporarily overloaded (HTTP ${status}).`);
    default:
      return info(502, `${who} failed (HTTP ${status}).`);
  }
}

/**
 * The data of an in-stream `event: error`. Its type stands in for the HTTP status Anthropic would have
 * answered (overloaded_error ↔ 529, ...); the vendor's own text is appended to server-side failures.
 */
export function mapStreamError(payload: unknown, providerId = 'anthropic'): { code: StreamErrorCode; message: string } {
  const error = readAnthropicError(payload);
  const status = (error.type && STATUS_OF_TYPE[error.type]) || 500;
  const info = mapError({ status, body: payload }, { providerId });
  const detail = error.message ? redactMessage(error.message) : undefined;
  const message =
    info.status >= 500 && detail && !info.message.includes(detail) ? `${info.message} ${detail}` : info.message;
  return { code: info.streamCode, message };
}
