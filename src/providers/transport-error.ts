// Why an upstream call produced no HTTP response at all, classified once at the transport's edge.
import { errors as undiciErrors } from 'undici';

/** Why an upstream call produced no HTTP response at all. */
export class UpstreamTransportError extends Error {
  constructor(
    /** `queue_timeout`: the request waited for a free upstream slot longer than allowed (origin-limiter.ts). */
    readonly reason: 'timeout' | 'unreachable' | 'aborted' | 'failed' | 'queue_timeout',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UpstreamTransportError';
  }
}

export function classifyTransportError(err: unknown, signal?: { readonly aborted: boolean }): UpstreamTransportError {
  if (err instanceof UpstreamTransportError) return err;
  if (signal?.aborted || (err as Error)?.name === 'AbortError' || err instanceof undiciErrors.RequestAbortedError) {
    return new UpstreamTransportError('aborted', 'request aborted', { cause: err });
  }
  if (
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError ||
    err instanceof undiciErrors.ConnectTimeoutError
  ) {
    return new UpstreamTransportError('timeout', 'upstream timed out', { cause: err });
  }
  const code = (err as { code?: string })?.code;
  if (code && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)) {
    return new UpstreamTransportError('unreachable', `upstream unreachable (${code})`, { cause: err });
  }
  return new UpstreamTransportError('failed', `upstream connection failed${code ? ` (${code})` : ''}`, { cause: err });
}
