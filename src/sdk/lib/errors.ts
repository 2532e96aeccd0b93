// One error type for every non-2xx answer: the gateway's envelope {error:{code,message,metadata}} plus the HTTP
// status and request id, so callers branch on `status` and quote `requestId` in support reports.
import type { ErrorResponse } from './openapi-types.js';

// The statuses the API documents as transient (429, 500, 502, 503): worth a retry with backoff.
const RETRYABLE = new Set([429, 500, 502, 503]);

export class ModelgateError extends Error {
  readonly status: number;
  /** `error.code`: the HTTP status as a number, or a string identifier for errors reported inside a stream. */
  readonly code: number | string;
  readonly metadata: Record<string, unknown>;
  /** The `x-request-id` response header (or `error.metadata.request_id`), when the gateway sent one. */
  readonly requestId: string | undefined;
  /** Seconds from a `Retry-After` header (429), when present. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: unknown, headers?: Headers) {
    const envelope = isErrorResponse(body) ? body.error : undefined;
    super(envelope?.message ?? `HTTP ${status}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`);
    this.name = 'ModelgateError';
    this.status = status;
    this.code = envelope?.code ?? status;
    this.metadata = (envelope?.metadata as Record<string, unknown> | undefined) ?? {};
    const fromBody = this.metadata.request_id;
    this.requestId = headers?.get('x-request-id') ?? (typeof fromBody === 'string' ? fromBody : undefined);
    const retryAfter = Number(headers?.get('retry-after'));
    this.retryAfterSeconds = headers?.has('retry-after') && Number.isFinite(retryAfter) ? retryAfter : undefined;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.status);
  }
}

function isErrorResponse(body: unknown): body is ErrorResponse {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  return typeof error === 'object' && error !== null && typeof error.message === 'string';
}
