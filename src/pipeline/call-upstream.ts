// Step 5: send the translated request. A non-2xx answer or a transport failure becomes a GatewayError in the
// spec's table (429 keeps its Retry-After; upstream faults are 502; an unreachable provider is 503, and so is one this
// gateway has no free upstream slot for in time).
import type { AdapterContext, ProviderAdapter, UpstreamErrorInfo } from '../providers/adapter.js';
import {
  UpstreamTransportError,
  type CallSignal,
  type HttpClient,
  type OutgoingRequest,
  type UpstreamResponse,
} from '../providers/http-client.js';
import { GatewayError } from '../core/gateway-error.js';
import { observeUpstreamAttempt } from '../observability/upstream-attempt.js';
import type { ClientTraceHeaders } from '../observability/client-trace-context.js';
import type { AttemptTrace, RequestTrace } from '../observability/gateway-tracer.js';

const MAX_ERROR_BODY_BYTES = 64 * 1024;

export class UpstreamHttpError extends GatewayError {
  constructor(
    readonly info: UpstreamErrorInfo,
    provider: string,
    upstreamStatus: number,
  ) {
    super(
      info.status,
      info.message,
      {
        provider,
        upstream_status: upstreamStatus,
        ...(info.upstreamCode ? { upstream_code: info.upstreamCode } : {}),
        reason: info.streamCode,
      },
      info.retryAfterSeconds !== undefined ? { 'retry-after': String(Math.ceil(info.retryAfterSeconds)) } : {},
    );
  }
}

export function callUpstream(
  http: HttpClient,
  adapter: ProviderAdapter,
  /** The vendor request: the adapter's translation, or the native lane's spliced client bytes. */
  build: () => OutgoingRequest,
  ctx: AdapterContext,
  signal: CallSignal,
  /** The client's W3C trace context, forwarded when the gateway does not trace itself. */
  clientTrace?: ClientTraceHeaders,
  /** The request's span, when the gateway traces. */
  requestTrace?: RequestTrace,
): Promise<UpstreamResponse> {
  // Counted (metrics) and traced (a span per attempt) when those are on; otherwise just the attempt.
  return observeUpstreamAttempt(http.observer, ctx, requestTrace, (attempt) =>
    sendAttempt({ http, adapter, build, ctx, signal, clientTrace }, attempt),
  );
}

/** One call to a vendor: who sends it, how it is built and mapped, and what cuts it. */
interface UpstreamCall {
  http: HttpClient;
  adapter: ProviderAdapter;
  build: () => OutgoingRequest;
  ctx: AdapterContext;
  signal: CallSignal;
  clientTrace: ClientTraceHeaders | undefined;
}

async function sendAttempt(
  { http, adapter, build, ctx, signal, clientTrace }: UpstreamCall,
  attemptSpan: AttemptTrace | undefined,
): Promise<UpstreamResponse> {
  // No local holds the built request across the await: it carries the JSON body, as large as the prompt, and a
  // suspended frame keeps its locals alive (http.send keeps only the bytes).
  const sending = http.send(build(), signal, clientTrace, attemptSpan);
  let response: UpstreamResponse;
  try {
    response = await sending;
  } catch (err) {
    throw transportFailure(err, ctx.provider.id);
  }
  if (response.status >= 200 && response.status < 300) return response;
  const body = await readErrorBody(response);
  const info = adapter.mapError({ status: response.status, body, headers: response.headers }, ctx);
  throw new UpstreamHttpError(info, ctx.provider.id, response.status);
}

export function transportFailure(err: unknown, provider: string): GatewayError {
  if (err instanceof GatewayError) return err;
  const reason = err instanceof UpstreamTransportError ? err.reason : 'failed';
  if (reason === 'unreachable') {
    return new GatewayError(503, `Provider ${provider} is unreachable`, { provider, reason: 'upstream_unreachable' });
  }
  if (reason === 'timeout') {
    return new GatewayError(502, `Provider ${provider} timed out`, { provider, reason: 'upstream_timeout' });
  }
  if (reason === 'queue_timeout') {
    // The gateway's own cap on requests in flight to the provider (origin-limiter.ts), not a fault of the provider.
    return new GatewayError(503, `Provider ${provider} is busy: ${(err as Error).message}; retry shortly`, {
      provider,
      reason: 'upstream_queue_timeout',
    });
  }
  if (reason === 'aborted') {
    return new GatewayError(499, 'Client closed the request', { provider, reason: 'client_disconnected' });
  }
  return new GatewayError(502, `Provider ${provider} failed: ${(err as Error)?.message ?? 'connection error'}`, {
    provider,
    reason: 'upstream_error',
  });
}

/** An error answer's body, at most 64 KiB of it, as JSON when it is JSON (the embeddings flow reads its errors too). */
export async function readErrorBody(response: UpstreamResponse): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > MAX_ERROR_BODY_BYTES) break;
      chunks.push(chunk as Buffer);
    }
  } catch {
    // A body cut short still maps by status alone.
  } finally {
    response.body.destroy();
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Reads a successful body whole, as bytes (the native lane); a transport failure mid-body is a 502. */
export async function readUpstreamBytes(response: UpstreamResponse, provider: string): Promise<Buffer> {
  try {
    return await response.body.bytes();
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new GatewayError(502, `Provider ${provider} returned a malformed response`, {
      provider,
      reason: 'upstream_malformed',
    });
  }
}

/** Reads a successful JSON body (a client that leaves aborts the exchange, which ends the read). */
export async function readUpstreamJson(response: UpstreamResponse, provider: string): Promise<unknown> {
  try {
    return await response.body.json();
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new GatewayError(502, `Provider ${provider} returned a malformed response`, {
      provider,
      reason: 'upstream_malformed',
    });
  }
}
