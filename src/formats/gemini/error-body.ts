// Errors in Google's shape, {"error":{"code","message","status","details"}}, so the Gen AI SDKs and Gemini CLI raise
// their errors (Gemini CLI retries 429 and 5xx and shows the message otherwise). `code` stays the gateway's HTTP
// status (a 402 stays 402); `status` is the google.rpc code Google's HTTP mapping gives it. The gateway's reason and
// metadata ride in a google.rpc.ErrorInfo, whose metadata values are strings.
import type { StreamErrorCode } from '../../core/generation.js';
import type { GatewayError } from '../../core/gateway-error.js';
import type { GeminiErrorResponse } from './wire-types.js';
import { rpcStatusOf } from '../../core/google-rpc-status.js';

function asString(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function geminiErrorBody(
  status: number,
  message: string,
  metadata: Readonly<Record<string, unknown>> = {},
): GeminiErrorResponse {
  const body: GeminiErrorResponse = { error: { code: status, message, status: rpcStatusOf(status) } };
  const entries = Object.entries(metadata).filter(([, value]) => value !== undefined && value !== null);
  if (entries.length > 0) {
    const reason = typeof metadata.reason === 'string' ? metadata.reason : rpcStatusOf(status);
    body.error.details = [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason,
        domain: 'modelgate',
        metadata: Object.fromEntries(entries.map(([name, value]) => [name, asString(value)])),
      },
    ];
  }
  return body;
}

/** A failure after the stream began: the chunk's error, with the status the same failure would have had before it. */
export function geminiStreamError(code: StreamErrorCode, message: string): GeminiErrorResponse {
  switch (code) {
    case 'rate_limit':
      return geminiErrorBody(429, message);
    case 'context_length_exceeded':
    case 'content_filter':
      return geminiErrorBody(400, message, { reason: code });
    default:
      return geminiErrorBody(500, message);
  }
}

/** The Gemini routes' error body for the error middleware (src/http/error-envelope.ts). */
export const GEMINI_ERROR_SHAPE = {
  pathPrefix: '/api/v1/gemini',
  render: (error: GatewayError, requestId: string | undefined) =>
    geminiErrorBody(
      error.status,
      error.message,
      requestId === undefined ? error.metadata : { ...error.metadata, request_id: requestId },
    ),
};
