// Errors in Anthropic's shape, {"type":"error","error":{"type","message"}}, so Anthropic SDKs raise their typed
// errors (AuthenticationError, RateLimitError, ...). The status stays the gateway's; the type follows it.
import type { IncomingHttpHeaders } from 'node:http';
import type { StreamErrorCode } from '../../core/generation.js';
import { wantsAnthropicShape } from './models-api.js';
import type { MessagesErrorResponse, MessagesErrorType } from './wire-types.js';

const TYPE_OF_STATUS: Readonly<Record<number, MessagesErrorType>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  413: 'request_too_large',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  503: 'overloaded_error',
  529: 'overloaded_error',
};

export function errorTypeOfStatus(status: number): MessagesErrorType {
  return TYPE_OF_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

export function messagesErrorBody(type: MessagesErrorType, message: string): MessagesErrorResponse {
  return { type: 'error', error: { type, message } };
}

/** A failure after the stream began (the `event: error` data). */
export function streamErrorType(code: StreamErrorCode): MessagesErrorType {
  switch (code) {
    case 'rate_limit':
      return 'rate_limit_error';
    case 'context_length_exceeded':
    case 'content_filter':
      return 'invalid_request_error';
    default:
      return 'api_error';
  }
}

/** The Messages routes' error body for the error middleware (src/http/error-envelope.ts). */
export const MESSAGES_ERROR_SHAPE = {
  pathPrefix: '/api/v1/messages',
  render: (error: { status: number; message: string }) =>
    messagesErrorBody(errorTypeOfStatus(error.status), error.message),
};

/** Path of the model listing (GET /models, GET /models/{id}); a model's endpoints listing below it is the gateway's own. */
const MODELS_PATH = '/api/v1/models';

/**
 * The model routes' errors for Anthropic requests (anthropic-version or x-api-key): Claude Code's discovery and the
 * Anthropic SDKs' `models.list()`/`retrieve()` read Anthropic's body there. Other requests get the gateway's envelope.
 */
export const MODELS_ANTHROPIC_ERROR_SHAPE = {
  pathPrefix: MODELS_PATH,
  when: (path: string, headers: IncomingHttpHeaders) =>
    !path.slice(MODELS_PATH.length + 1).includes('/') && wantsAnthropicShape(headers),
  render: MESSAGES_ERROR_SHAPE.render,
};
