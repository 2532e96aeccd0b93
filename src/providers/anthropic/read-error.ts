// Reads Anthropic's error body `{type:"error", error:{type, message, details?}, request_id}` (the same
// object arrives as the data of an in-stream `error` event). Bodies from proxies in front of the API
// (Cloudflare's 413, HTML pages) are tolerated: whatever cannot be read is simply absent.
import { isRecord, readRecord, readString, decodeErrorBody } from '../payload-readers.js';

export interface AnthropicError {
  /** invalid_request_error, authentication_error, rate_limit_error, overloaded_error, ... */
  type?: string;
  message?: string;
  /** `error.details.error_code`, e.g. enforced_spend_limit_reached on a 429. */
  detailCode?: string;
}

const MAX_MESSAGE = 1000;

/** HTTP status Anthropic documents for each error type; used for errors that arrive inside a stream. */
export const STATUS_OF_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export function readAnthropicError(body: unknown): AnthropicError {
  const decoded = decodeErrorBody(body);
  if (typeof decoded === 'string') {
    // HTML error pages carry nothing a client can use.
    return decoded === '' || decoded.startsWith('<') ? {} : { message: decoded.slice(0, MAX_MESSAGE) };
  }
  if (!isRecord(decoded)) return {};
  const inner = readRecord(decoded.error) ?? decoded;
  const out: AnthropicError = {};
  const type = readString(inner.type);
  if (type && type !== 'error') out.type = type;
  const message = readString(inner.message);
  if (message) out.message = message;
  const detailCode = readString(readRecord(inner.details)?.error_code);
  if (detailCode) out.detailCode = detailCode;
  return out;
}

/** Vendor messages may quote the gateway's own key or organization id; neither may reach a client. */
export function redactMessage(message: string): string {
  return message
    .replace(/\bsk-ant-[A-Za-z0-9_-]+/g, 'sk-ant-***')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '***')
    .slice(0, MAX_MESSAGE);
}
