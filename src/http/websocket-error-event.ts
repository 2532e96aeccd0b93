// A refusal or failure on a Responses WebSocket, as OpenAI's WebSocket mode tells one: an `error` event carrying the
// HTTP status the same request would have had over HTTP, the error's type, code, message and param, and the headers
// that request would have carried (Retry-After). Codex reads the status to decide as it does for an HTTP answer
// (retry a 429 or 5xx, refresh credentials on a 401); the gateway's own metadata rides along as over HTTP.
import type { GatewayError } from '../core/gateway-error.js';

function typeOf(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

export function errorEvent(error: GatewayError, requestId?: string): string {
  const { status, metadata } = error;
  const code = typeof error.code === 'string' ? error.code : (metadata.reason ?? typeOf(status));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(error.headers)) headers[name.toLowerCase()] = value;
  return JSON.stringify({
    type: 'error',
    status,
    error: {
      type: typeOf(status),
      code,
      message: error.message,
      param: paramOf(metadata),
      metadata: requestId === undefined ? metadata : { ...metadata, request_id: requestId },
    },
    headers,
  });
}

/** The request field at fault: the schema's (`field`) or the one a refusal names as OpenAI does (`param`). */
function paramOf(metadata: GatewayError['metadata']): string | null {
  const param = metadata.param ?? metadata.field;
  return typeof param === 'string' ? param : null;
}
