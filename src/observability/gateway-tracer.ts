// The gateway's own spans on an OpenTelemetry SDK tracer (tracing-sdk.ts builds it): a SERVER span per generation
// request, continuing the client's W3C trace, and a CLIENT span per upstream attempt, its child, whose context goes
// upstream as `traceparent`. Their GenAI attributes are written once, as each ends (gateway-spans.ts), from what was
// recorded on the way.
//
// The trace is passed along explicitly (Koa state → GenerationRun → attempt → transport), and a parent is given to
// startSpan as `trace.setSpan(ROOT_CONTEXT, span)`: no context manager is installed. The AsyncLocalStorage manager that
// `provider.register()` sets up makes every async step of every request carry the context, which measured as most of
// tracing's cost per request.
import type { IncomingHttpHeaders } from 'node:http';
import {
  ROOT_CONTEXT,
  SpanKind,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type Context,
  type Span,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import { endAttemptSpan, endRequestSpan, type RequestSpanRecord } from './gateway-spans.js';
import { genAiProviderName } from './gen-ai-provider-name.js';

/** The GenAI operation of a request: `chat` (every generation door) or `embeddings`. */
export type GenAiOperation = 'chat' | 'embeddings';

/** What the sampler sees of a request span at its start (its name and model are known only at settlement). */
const REQUEST_SPAN_START = {
  chat: { kind: SpanKind.SERVER, attributes: { 'gen_ai.operation.name': 'chat' } },
  embeddings: { kind: SpanKind.SERVER, attributes: { 'gen_ai.operation.name': 'embeddings' } },
};

export class GatewayTracer {
  constructor(
    /** The SDK's tracer: any span the gateway starts, its own two kinds included. */
    readonly tracer: Tracer,
    /** The W3C trace-context propagator: it reads the client's headers and writes the upstream's. */
    private readonly propagator: TextMapPropagator,
  ) {}

  /** Starts the span of a generation request, continuing the client's trace when it sent a valid traceparent. */
  startRequest(headers: IncomingHttpHeaders, operation: GenAiOperation = 'chat'): RequestTrace {
    // A malformed traceparent leaves the root context: the request starts a trace of its own, never an error.
    const parent =
      headers.traceparent === undefined
        ? ROOT_CONTEXT
        : this.propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    return new RequestTrace(this, this.tracer.startSpan(operation, REQUEST_SPAN_START[operation], parent), operation);
  }

  /** Writes `traceparent` (and `tracestate`) naming `span` into `headers`; only these two, never the client's baggage. */
  injectInto(headers: Record<string, string>, span: Span): void {
    this.propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, defaultTextMapSetter);
  }

  /** The headers injectInto writes for `span`, on their own. */
  traceContextOf(span: Span): Record<string, string> {
    const headers: Record<string, string> = {};
    this.injectInto(headers, span);
    return headers;
  }
}

export class RequestTrace {
  /** Sampled: the span records, and its attempts follow (every standard sampler decides the same for them). */
  readonly sampled: boolean;
  /** The generation record (settlement): the model, provider, usage and outcome the span reports. */
  record: RequestSpanRecord | undefined = undefined;
  private context: Context | undefined = undefined;
  /** Unsampled: the trace headers every attempt sends upstream. */
  private unsampledContext: Readonly<Record<string, string>> | undefined = undefined;
  private ended = false;

  constructor(
    private readonly owner: GatewayTracer,
    readonly span: Span,
    readonly operation: GenAiOperation = 'chat',
  ) {
    this.sampled = span.isRecording();
  }

  /** Starts the span of an upstream attempt, child of this one (sampled), or only hands its trace context on. */
  startAttempt(provider: string, upstreamModel: string): AttemptTrace {
    // Unsampled, the attempt would be too under every sampler the OTEL_TRACES_SAMPLER variable can name (parent-based
    // ones follow this span, ratio ones decide by the same trace id, always_off never samples): so no span is started
    // for it, and no sampler call, span id, context or attribute object is spent on a span nobody records. The upstream
    // gets this span's context, flagged not sampled, written once for all the request's attempts.
    if (!this.sampled) {
      this.unsampledContext ??= this.owner.traceContextOf(this.span);
      return new AttemptTrace(this.owner, this.span, this.unsampledContext);
    }
    this.context ??= trace.setSpan(ROOT_CONTEXT, this.span);
    const span = this.owner.tracer.startSpan(
      `${this.operation} ${upstreamModel}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': this.operation,
          'gen_ai.provider.name': genAiProviderName(provider),
          'gen_ai.request.model': upstreamModel,
          'modelgate.provider': provider,
        },
      },
      this.context,
    );
    return new AttemptTrace(this.owner, span);
  }

  /** The generation record (settlement) for the span to report; kept only by a sampled span still open. */
  annotate(record: RequestSpanRecord): void {
    if (this.sampled && !this.ended) this.record = record;
  }

  /** Ends the span once, with the answer's final status and the record given to annotate(). */
  end(httpStatus: number): void {
    if (this.ended) return;
    this.ended = true;
    if (this.sampled) endRequestSpan(this.span, httpStatus, this.record, this.operation);
    else this.span.end();
  }
}

export class AttemptTrace {
  readonly sampled: boolean;
  /** The upstream server (http-client.ts). */
  host: string | undefined = undefined;
  port: number | undefined = undefined;
  /** The upstream's HTTP status, when one arrived. */
  httpStatus: number | undefined = undefined;
  /** The attempt failed before a body: its outcome (upstream-attempt.ts's vocabulary). */
  failedAtHead: string | undefined = undefined;
  /** The body was not read to its end, or its stream ended with an error: why. */
  bodyError: string | undefined = undefined;
  upstreamId: string | undefined = undefined;
  finishReason: string | undefined = undefined;
  inputTokens: number | undefined = undefined;
  outputTokens: number | undefined = undefined;
  private ended = false;

  constructor(
    private readonly owner: GatewayTracer,
    /** The attempt's own span; for an unsampled request, the request's (no span is started for the attempt). */
    readonly span: Span,
    /** Unsampled: the request's trace headers, given to every attempt as they are. */
    private readonly unsampledContext?: Readonly<Record<string, string>>,
  ) {
    this.sampled = unsampledContext === undefined && span.isRecording();
  }

  /** The upstream request's headers with this span's trace context (unsampled too: flagged 00). */
  traceHeaders(headers: Record<string, string>): Record<string, string> {
    // Copied key by key: a spread measured several times slower on this path.
    const withContext: Record<string, string> = {};
    for (const name in headers) withContext[name] = headers[name]!;
    const unsampled = this.unsampledContext;
    if (unsampled === undefined) this.owner.injectInto(withContext, this.span);
    else for (const name in unsampled) withContext[name] = unsampled[name]!;
    return withContext;
  }

  /** Ends the span once, with what was recorded of the exchange (an unsampled attempt has no span of its own). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.sampled) endAttemptSpan(this.span, this);
    else if (this.unsampledContext === undefined) this.span.end();
  }
}
