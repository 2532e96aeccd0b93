// Upstream HTTP over undici's dispatch API with a keep-alive pool (fetch costs ~3x the CPU per proxied request,
// see BENCHMARKS.md; `request` another ~15 µs for its body stream, see upstream-exchange.ts). Timeouts and the
// client-tied abort signal apply to every call.
import type { EventEmitter } from 'node:events';
import { Agent, errors as undiciErrors } from 'undici';
import type { UpstreamRequest } from './adapter.js';
import { UpstreamExchange, type UpstreamResponse } from './upstream-exchange.js';
import type { AttemptTrace } from '../observability/gateway-tracer.js';
import type { UpstreamAttemptObserver } from '../observability/upstream-attempt.js';
import type { ClientTraceHeaders } from '../observability/client-trace-context.js';

export type { UpstreamBody, UpstreamResponse } from './upstream-exchange.js';

export interface HttpClientOptions {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

/**
 * What cancels an upstream call: an AbortSignal, or what undici accepts in its place, an EventEmitter that emits
 * 'abort' and carries `aborted` and `reason` (the gateway's own, see src/http/abort-on-disconnect.ts).
 */
export type CallSignal = AbortSignal | (EventEmitter & { readonly aborted: boolean; readonly reason?: unknown });

/** Why an upstream call produced no HTTP response at all. */
export class UpstreamTransportError extends Error {
  constructor(
    readonly reason: 'timeout' | 'unreachable' | 'aborted' | 'failed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UpstreamTransportError';
  }
}

/** Distinct upstream URLs remembered (one per provider endpoint in practice); past this the memo starts over. */
const MAX_TARGETS = 256;

export class HttpClient {
  private readonly agent: Agent;
  private readonly targets = new Map<string, UpstreamTarget>();
  /** Counts attempts by outcome (metrics); set by the server when metrics are on. */
  observer?: UpstreamAttemptObserver;

  constructor(options: HttpClientOptions) {
    this.agent = new Agent({
      connect: { timeout: options.connectTimeoutMs },
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      keepAliveTimeout: 30_000,
      connections: 256,
    });
  }

  /**
   * The JSON body is as large as the prompt. It leaves as bytes: undici keeps the body it is given until the
   * exchange ends, and a Buffer is the one copy it keeps (given a string it keeps both). The method is not async
   * on purpose: a suspended async frame would keep `upstream`, and with it the JSON text, alive just as long.
   */
  send(upstream: UpstreamRequest, signal: CallSignal, clientTrace?: ClientTraceHeaders, attempt?: AttemptTrace): Promise<UpstreamResponse> {
    const exchange = new UpstreamExchange(signal);
    try {
      const target = this.target(upstream.url);
      // With tracing on, the upstream continues the trace: traceparent names the attempt's span. With it off, the
      // client's own trace context (validated, see client-trace-context.ts) goes on as it came.
      const headers = attempt !== undefined
        ? withAttemptContext(upstream.headers, target, attempt)
        : clientTrace === undefined ? upstream.headers : { ...upstream.headers, ...clientTrace };
      this.agent.dispatch({ origin: target.origin, path: target.path, method: upstream.method, headers, body: Buffer.from(upstream.body) }, exchange);
    } catch (err) {
      // An invalid URL or option fails at once; callers expect every failure as a rejection.
      exchange.abandon();
      return Promise.reject(classifyTransportError(err, signal));
    }
    return exchange.head.catch((err: unknown) => {
      throw classifyTransportError(err, signal);
    });
  }

  /** Origin and path of an upstream URL. Provider URLs are few and fixed, so each is parsed once. */
  private target(url: string): UpstreamTarget {
    let target = this.targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`unsupported upstream URL protocol ${parsed.protocol}`);
      target = {
        origin: parsed.origin, path: `${parsed.pathname}${parsed.search}`,
        host: parsed.hostname, port: Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)),
      };
      if (this.targets.size >= MAX_TARGETS) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

interface UpstreamTarget {
  origin: string;
  path: string;
  host: string;
  port: number;
}

/**
 * The attempt's span (upstream-attempt.ts) names the server, and its context goes upstream: `traceparent` and the
 * `tracestate` it continues, written by the W3C trace-context propagator, never the client's `baggage`.
 */
function withAttemptContext(headers: Record<string, string>, target: UpstreamTarget, attempt: AttemptTrace): Record<string, string> {
  attempt.host = target.host;
  attempt.port = target.port;
  return attempt.traceHeaders(headers);
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
