// Which failed attempts another endpoint may succeed at: transport failures, timeouts to the first byte, upstream
// 408, 429, 5xx and overloaded answers, streams that broke before their first event. Never 400/401/403/404-type
// answers (another endpoint would repeat them) nor a client that went away.
import { GatewayError } from '../core/gateway-error.js';
import { UpstreamHttpError } from './call-upstream.js';

const RETRYABLE_REASONS = new Set([
  'upstream_unreachable',
  'upstream_timeout',
  'upstream_error',
  'upstream_malformed',
  'upstream_stream_failed',
  'upstream_queue_timeout',
]);

/**
 * The attempt never left the gateway: every upstream slot of the provider's origin stayed busy for the queue timeout
 * (origin-limiter.ts). Another provider may serve; the same origin would only make the request wait again, and the
 * endpoint did nothing wrong (no circuit-breaker verdict).
 */
export function isQueueTimeout(err: unknown): boolean {
  return err instanceof GatewayError && err.metadata.reason === 'upstream_queue_timeout';
}

export function isRetryable(err: unknown): boolean {
  if (!(err instanceof GatewayError)) return false;
  const reason = err.metadata.reason;
  if (reason === 'client_disconnected') return false;
  if (err instanceof UpstreamHttpError) {
    const upstream = err.metadata.upstream_status;
    // A vendor error inside a 200 body is judged by the status it maps to.
    const status = typeof upstream === 'number' && upstream >= 300 ? upstream : err.status;
    return status === 408 || status === 429 || status >= 500 || err.info.upstreamCode === 'overloaded_error';
  }
  if (typeof reason === 'string' && RETRYABLE_REASONS.has(reason)) return true;
  return err.status === 429 || (err.status >= 500 && err.status !== 501);
}

/** The upstream HTTP status of a failed attempt, or null when none arrived. */
export function upstreamStatusOf(err: unknown): number | null {
  if (err instanceof UpstreamHttpError) {
    const upstream = err.metadata.upstream_status;
    return typeof upstream === 'number' ? upstream : null;
  }
  // A stream that broke before its first event did answer 200.
  if (err instanceof GatewayError && err.metadata.reason === 'upstream_stream_failed') return 200;
  return null;
}

export function errorCodeOf(err: unknown): string {
  if (err instanceof GatewayError) return String(err.metadata.reason ?? err.code);
  return 'internal_error';
}
