// Upstream HTTP over undici's dispatch API with a keep-alive pool (fetch costs several times the CPU per proxied
// request; `request` more for its body stream, see upstream-exchange.ts). Timeouts and the
// client-tied abort signal apply to every call; requests in flight per origin are capped (origin-limiter.ts), and
// the agent speaks HTTP/2 where the upstream offers it (upstream-agent.ts).
import type { Agent } from 'undici';
import type { UpstreamRequest } from './adapter.js';
import { UpstreamExchange, type UpstreamResponse } from './upstream-exchange.js';
import type { CallSignal } from './call-signal.js';
import { classifyTransportError } from './transport-error.js';
import { OriginLimiter, type OriginLoad, type OriginSlots } from './origin-limiter.js';
import { createUpstreamAgent } from './upstream-agent.js';

export type { UpstreamBody, UpstreamResponse } from './upstream-exchange.js';
export type { CallSignal } from './call-signal.js';
export { UpstreamTransportError, classifyTransportError } from './transport-error.js';

export interface HttpClientOptions {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Requests in flight per upstream origin at most (0: no cap), and how long one may wait for a slot past it, ms. */
  maxInFlightPerOrigin: number;
  queueTimeoutMs: number;
  /** Offer HTTP/2 to TLS upstreams. */
  http2: boolean;
  /** Certificates trusted for upstream TLS besides the system's: tests only (a local self-signed upstream). */
  ca?: string | Buffer;
}

/** Counts upstream attempts by outcome (metrics.ts is one); the pipeline reports to it (observability/upstream-attempt.ts). */
export interface UpstreamAttemptObserver {
  upstreamAttempt(provider: string, outcome: string): void;
}

/** The client's W3C trace context, forwarded as it came when the gateway does not trace itself
 *  (observability/client-trace-context.ts validates it). */
export interface ForwardedTraceHeaders {
  traceparent: string;
  tracestate?: string;
}

/** An attempt's span as the transport sees it (observability/gateway-tracer.ts AttemptTrace): told which server the
 *  attempt reached, it writes its trace context into the upstream request's headers. */
export interface AttemptContext {
  host: string | undefined;
  port: number | undefined;
  traceHeaders(headers: Record<string, string>): Record<string, string>;
}

/** What the transport sends: an adapter's request (JSON text), or the native lane's (the client's spliced bytes). */
export type OutgoingRequest = Omit<UpstreamRequest, 'body'> & { body: string | Buffer };

/** Distinct upstream URLs remembered (one per provider endpoint in practice); past this the memo starts over. */
const MAX_TARGETS = 256;

type Dispatch = Parameters<Agent['dispatch']>[0];

export class HttpClient {
  private readonly agent: Agent;
  private readonly limiter: OriginLimiter;
  private readonly targets = new Map<string, UpstreamTarget>();
  /** Counts attempts by outcome (metrics); set by the server when metrics are on. */
  observer?: UpstreamAttemptObserver;

  constructor(options: HttpClientOptions) {
    this.agent = createUpstreamAgent(options);
    this.limiter = new OriginLimiter({
      maxInFlight: options.maxInFlightPerOrigin,
      queueTimeoutMs: options.queueTimeoutMs,
    });
  }

  /** Requests in flight and waiting, per origin (/metrics). */
  load(): OriginLoad[] {
    return this.limiter.load();
  }

  /**
   * The JSON body is as large as the prompt. It leaves as bytes: undici keeps the body it is given until the
   * exchange ends, and a Buffer is the one copy it keeps (given a string it keeps both). The method is not async
   * on purpose: a suspended async frame would keep `upstream`, and with it the JSON text, alive just as long; a
   * request waiting for an upstream slot keeps only the dispatch options, with the bytes.
   */
  send(
    upstream: OutgoingRequest,
    signal: CallSignal,
    clientTrace?: ForwardedTraceHeaders,
    attempt?: AttemptContext,
  ): Promise<UpstreamResponse> {
    let slots: OriginSlots;
    let dispatch: Dispatch;
    try {
      const target = this.target(upstream.url);
      slots = target.slots;
      // With tracing on, the upstream continues the trace: traceparent names the attempt's span. With it off, the
      // client's own trace context (validated, see client-trace-context.ts) goes on as it came.
      const headers =
        attempt !== undefined
          ? withAttemptContext(upstream.headers, target, attempt)
          : clientTrace === undefined
            ? upstream.headers
            : { ...upstream.headers, ...clientTrace };
      // Idempotent, so that HTTP/2 multiplexes POSTs (upstream-agent.ts). undici reads the flag for nothing else here:
      // it never retries by itself, and an HTTP/1.1 connection carries one request at a time.
      dispatch = {
        origin: target.origin,
        path: target.path,
        method: upstream.method,
        headers,
        body: typeof upstream.body === 'string' ? Buffer.from(upstream.body) : upstream.body,
        idempotent: true,
      };
    } catch (err) {
      // An invalid URL or option fails at once; callers expect every failure as a rejection.
      return Promise.reject(classifyTransportError(err, signal));
    }
    const slot = slots.take(signal);
    if (slot === true) return this.dispatch(dispatch, slots, signal);
    return slot.then(
      () => this.dispatch(dispatch, slots, signal),
      (err: unknown) => {
        throw classifyTransportError(err, signal);
      },
    );
  }

  private dispatch(dispatch: Dispatch, slots: OriginSlots, signal: CallSignal): Promise<UpstreamResponse> {
    // The slot is given back once the exchange is over, however it ends (body read, failed, destroyed, never sent).
    const exchange = new UpstreamExchange(signal, () => slots.give());
    try {
      this.agent.dispatch(dispatch, exchange);
    } catch (err) {
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
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
        throw new TypeError(`unsupported upstream URL protocol ${parsed.protocol}`);
      target = {
        origin: parsed.origin,
        path: `${parsed.pathname}${parsed.search}`,
        host: parsed.hostname,
        port: Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)),
        slots: this.limiter.slotsOf(parsed.origin),
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
  slots: OriginSlots;
}

/**
 * The attempt's span (upstream-attempt.ts) names the server, and its context goes upstream: `traceparent` and the
 * `tracestate` it continues, written by the W3C trace-context propagator, never the client's `baggage`.
 */
function withAttemptContext(
  headers: Record<string, string>,
  target: UpstreamTarget,
  attempt: AttemptContext,
): Record<string, string> {
  attempt.host = target.host;
  attempt.port = target.port;
  return attempt.traceHeaders(headers);
}
