// The gateway's own spans, a SERVER span per generation request and a CLIENT span per upstream attempt (GenAI
// semantic conventions), recorded as a few plain fields: ids, times, the HTTP status, the generation record at
// settlement, what the upstream reported. Their attributes are written on the export thread (gateway-spans.ts), not
// here: as live API spans (a Span and a Context object each, a dozen attribute writes, their keys numbered for the
// wire) they cost the thread that serves requests ~4% more CPU per request (side by side, c=16) than as fields, which
// cost what ids, times and the traceparent header alone cost. Any other span still goes through the API
// (RecordingTracer), to the same export.
import { ROOT_CONTEXT, SpanKind, trace, type SpanContext } from '@opentelemetry/api';
import { SamplingDecision, type Sampler } from '@opentelemetry/sdk-trace-base';
import type { NewGeneration } from '../db/tables/generations.js';
import { RecordingTracer, randomHex, timeMs, type FinishedSpan } from './recording-tracer.js';

/** Where ended spans go: the export thread (span-export-thread.ts), or a test's exporter. */
export interface GatewaySpanSink {
  span(span: FinishedSpan): void;
  request(request: RequestTrace): void;
  attempt(attempt: AttemptTrace): void;
}

/** The sampler's view of a request span (its attributes at the start). */
const REQUEST_SPAN_ATTRIBUTES = { 'gen_ai.operation.name': 'chat' };

export class GatewayTracer extends RecordingTracer {
  constructor(sampler: Sampler, private readonly sink: GatewaySpanSink) {
    super(sampler, sink.span);
  }

  /** Starts the span of a generation request, continuing the client's span when it sent one. */
  startRequest(parent: SpanContext | undefined): RequestTrace {
    const traceId = parent?.traceId ?? randomHex(16);
    const parentContext = parent === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, parent);
    // The samplers of OTEL_TRACES_SAMPLER add no attributes: only the decision and a trace state are kept.
    const sampling = this.sampler.shouldSample(parentContext, traceId, 'chat', SpanKind.SERVER, REQUEST_SPAN_ATTRIBUTES, []);
    const traceState = sampling.traceState ?? parent?.traceState;
    const sampled = sampling.decision === SamplingDecision.RECORD_AND_SAMPLED;
    return new RequestTrace(this.sink, traceId, randomHex(8), sampled, traceState?.serialize() || undefined, parent);
  }
}

export class RequestTrace {
  readonly startMs = timeMs();
  endMs = 0;
  httpStatus = 0;
  /** The generation record (settlement): the model, provider, usage and outcome the span reports. */
  record: NewGeneration | undefined = undefined;
  readonly parentSpanId: string | undefined;
  readonly parentTraceFlags: number;
  readonly parentIsRemote: boolean;

  constructor(
    readonly sink: GatewaySpanSink,
    readonly traceId: string,
    readonly spanId: string,
    readonly sampled: boolean,
    /** The W3C tracestate, serialised: the request's and its attempts'. */
    readonly traceState: string | undefined,
    parent: SpanContext | undefined,
  ) {
    this.parentSpanId = parent?.spanId;
    this.parentTraceFlags = parent?.traceFlags ?? 0;
    this.parentIsRemote = parent?.isRemote === true;
  }

  /**
   * Starts the span of an upstream attempt, child of this one. It follows this span's sampling decision, as every
   * sampler the OTEL_TRACES_SAMPLER variable names would decide for it (a parent-based one by the parent's flag, the
   * others by the same trace id).
   */
  startAttempt(provider: string, upstreamModel: string): AttemptTrace {
    return new AttemptTrace(this, randomHex(8), provider, upstreamModel);
  }

  /** Ends the span once (its record is set: annotateRequestSpan), handing it on when sampled. */
  end(httpStatus: number): void {
    if (this.endMs !== 0) return;
    this.endMs = Math.max(this.startMs, timeMs());
    this.httpStatus = httpStatus;
    if (this.sampled) this.sink.request(this);
  }
}

export class AttemptTrace {
  readonly startMs = timeMs();
  endMs = 0;
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

  constructor(
    readonly request: RequestTrace,
    readonly spanId: string,
    readonly provider: string,
    readonly upstreamModel: string,
  ) {}

  /** Ends the span once, handing it on when sampled. */
  end(): void {
    if (this.endMs !== 0) return;
    this.endMs = Math.max(this.startMs, timeMs());
    if (this.request.sampled) this.request.sink.attempt(this);
  }

  /** The W3C traceparent naming this span, as the upstream gets it. */
  traceparent(): string {
    return `00-${this.request.traceId}-${this.spanId}-${this.request.sampled ? '01' : '00'}`;
  }
}
