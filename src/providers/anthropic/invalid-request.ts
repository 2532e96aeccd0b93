// Client mistakes the adapter finds while translating (e.g. tool-call arguments that are not JSON). They
// are answered 400 before anything is sent, instead of letting the vendor reject a half-repaired request.
import { GatewayError } from '../../core/gateway-error.js';

export function invalidRequest(message: string, field: string, reason: string): GatewayError {
  return new GatewayError(400, `Invalid request: ${message}`, { field, reason, provider: 'anthropic' });
}
