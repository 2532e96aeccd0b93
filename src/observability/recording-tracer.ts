// The `@opentelemetry/api` Tracer of the gateway when it exports traces itself (tracing-sdk.ts), for any span other
// than its own request and attempt spans (those are recorded as fields: gateway-tracer.ts, which extends this). A span
// is recorded here, on the request's thread, as plain data: ids, times, attributes, status. Once ended, it is handed
// on as a FinishedSpan, and the OpenTelemetry SDK turns it into an exported span on a worker thread
// (span-export-worker.ts). The SDK's own Span (attribute sanitising, limits, processors on the request's path) and its
// OTLP encoding measured ~50 µs per request, an eighth of a request's CPU: on the thread that serves, that is an
// eighth of the throughput.
//
// It follows the API's contract as the SDK's tracer does: the sampler decides at the start (unsampled: a
// non-recording span that still carries a valid context upstream), a child continues its parent's trace and trace
// state, and a span written to or ended after its end is left unchanged, with the SDK's diagnostic warning.
import { randomFillSync } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, diag, isSpanContextValid, trace,
  type Attributes, type AttributeValue, type Context, type Exception, type HrTime, type Link, type Span, type SpanContext,
  type SpanOptions, type SpanStatus, type TimeInput, type Tracer,
} from '@opentelemetry/api';
import { SamplingDecision, type Sampler } from '@opentelemetry/sdk-trace-base';

/** An ended, sampled span: what is exported (span-wire.ts carries it to the export thread). */
export interface FinishedSpan {
  readonly name: string;
  readonly kind: SpanKind;
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  /** The W3C tracestate, serialised. */
  readonly traceState: string | undefined;
  readonly parentSpanId: string | undefined;
  readonly parentTraceFlags: number;
  readonly parentIsRemote: boolean;
  /** Milliseconds since the epoch, to the microsecond. */
  readonly startMs: number;
  readonly endMs: number;
  readonly statusCode: SpanStatusCode;
  readonly statusMessage: string | undefined;
  /**
   * Key, value, key, value...: the few attributes of a span kept as pairs in one array, which V8 fills and copies
   * far faster than an object with a dotted key per attribute (it gives each such object a map of its own).
   */
  readonly attributes: readonly (string | AttributeValue)[];
  readonly events: readonly SpanEvent[] | undefined;
  readonly links: readonly SpanLink[] | undefined;
}

export interface SpanEvent {
  name: string;
  timeMs: number;
  attributes?: Attributes;
}

export interface SpanLink {
  traceId: string;
  spanId: string;
  traceFlags: number;
  attributes?: Attributes;
}

export class RecordingTracer implements Tracer {
  constructor(
    protected readonly sampler: Sampler,
    /** Receives each sampled span once it has ended (unsampled ones are never recorded). */
    private readonly finished: (span: FinishedSpan) => void,
  ) {}

  startSpan(name: string, options: SpanOptions = {}, context: Context = ROOT_CONTEXT): Span {
    const parentContext = options.root ? ROOT_CONTEXT : context;
    const parent = trace.getSpanContext(parentContext);
    const validParent = parent !== undefined && isSpanContextValid(parent) ? parent : undefined;
    const traceId = validParent?.traceId ?? randomHex(16);
    const spanId = randomHex(8);
    const kind = options.kind ?? SpanKind.INTERNAL;
    const links = options.links ?? [];
    const sampling = this.sampler.shouldSample(parentContext, traceId, name, kind, options.attributes ?? {}, links);
    const sampled = sampling.decision === SamplingDecision.RECORD_AND_SAMPLED;
    const spanContext: SpanContext = {
      traceId, spanId, traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
      traceState: sampling.traceState ?? validParent?.traceState,
    };
    // Not sampled: nothing to record, but the context still goes upstream (flagged not sampled).
    if (!sampled) return trace.wrapSpanContext(spanContext);
    const span = new RecordedSpan(spanContext, validParent, name, kind, timeMs(options.startTime), this.finished);
    if (options.attributes) span.setAttributes(options.attributes);
    if (sampling.attributes) span.setAttributes(sampling.attributes);
    if (links.length > 0) span.addLinks(links);
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...args: unknown[]): ReturnType<F> {
    // The gateway passes contexts explicitly and installs no context manager: "active" is the context given.
    const fn = args.pop() as F;
    const [options, context] = args as [SpanOptions | undefined, Context | undefined];
    return fn(this.startSpan(name, options, context)) as ReturnType<F>;
  }
}

class RecordedSpan implements Span, FinishedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  traceState: string | undefined = undefined;
  readonly parentSpanId: string | undefined;
  readonly parentTraceFlags: number;
  readonly parentIsRemote: boolean;
  endMs = 0;
  statusCode = SpanStatusCode.UNSET;
  statusMessage: string | undefined = undefined;
  readonly attributes: (string | AttributeValue)[] = [];
  events: SpanEvent[] | undefined = undefined;
  links: SpanLink[] | undefined = undefined;
  private ended = false;

  constructor(
    private readonly context: SpanContext,
    parent: SpanContext | undefined,
    public name: string,
    readonly kind: SpanKind,
    readonly startMs: number,
    private readonly finished: (span: FinishedSpan) => void,
  ) {
    this.traceId = context.traceId;
    this.spanId = context.spanId;
    this.traceFlags = context.traceFlags;
    this.parentSpanId = parent?.spanId;
    this.parentTraceFlags = parent?.traceFlags ?? 0;
    this.parentIsRemote = parent?.isRemote === true;
  }

  spanContext(): SpanContext {
    return this.context;
  }

  setAttribute(key: string, value: AttributeValue | undefined): this {
    if (this.endedWarning() || key.length === 0 || !isAttributeValue(value)) return this;
    const attributes = this.attributes;
    // A key set again replaces its value (spans have a dozen attributes: a scan beats a lookup structure).
    for (let i = 0; i < attributes.length; i += 2) {
      if (attributes[i] === key) {
        attributes[i + 1] = value;
        return this;
      }
    }
    attributes.push(key, value);
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) this.setAttribute(key, attributes[key]);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.endedWarning()) return this;
    const timed = isTimeInput(attributesOrTime);
    const event: SpanEvent = { name, timeMs: timeMs(timed ? attributesOrTime : time) };
    if (!timed && attributesOrTime) event.attributes = { ...attributesOrTime };
    (this.events ??= []).push(event);
    return this;
  }

  addLink(link: Link): this {
    if (this.endedWarning()) return this;
    const { traceId, spanId, traceFlags } = link.context;
    (this.links ??= []).push(link.attributes ? { traceId, spanId, traceFlags, attributes: { ...link.attributes } } : { traceId, spanId, traceFlags });
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (this.endedWarning()) return this;
    // As the SDK: UNSET changes nothing, OK is final, and only an error has a description.
    if (status.code === SpanStatusCode.UNSET || this.statusCode === SpanStatusCode.OK) return this;
    this.statusCode = status.code;
    this.statusMessage = status.code === SpanStatusCode.ERROR && typeof status.message === 'string' ? status.message : undefined;
    return this;
  }

  updateName(name: string): this {
    if (!this.endedWarning()) this.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.endedWarning()) return;
    this.ended = true;
    this.endMs = Math.max(this.startMs, timeMs(endTime));
    this.traceState = this.context.traceState?.serialize();
    this.finished(this);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    // The semantic conventions' exception event.
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else {
      if (exception.name || exception.code !== undefined) attributes['exception.type'] = exception.name ?? String(exception.code);
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    this.addEvent('exception', attributes, time);
  }

  /** True (with the SDK's warning) once the span has ended: later writes are ignored. */
  private endedWarning(): boolean {
    if (!this.ended) return false;
    diag.warn(`Can not execute the operation on ended Span {traceId: ${this.traceId}, spanId: ${this.spanId}}`);
    return true;
  }
}

/** A primitive, or an array of one primitive type (nulls allowed), as the API defines an attribute value. */
function isAttributeValue(value: unknown): value is AttributeValue {
  if (value === null || value === undefined) return false;
  if (!Array.isArray(value)) return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  let type: string | undefined;
  for (const element of value) {
    if (element === null || element === undefined) continue;
    type ??= typeof element;
    if (typeof element !== type || (type !== 'string' && type !== 'number' && type !== 'boolean')) return false;
  }
  return true;
}

function isTimeInput(value: unknown): value is TimeInput {
  return typeof value === 'number' || value instanceof Date || (Array.isArray(value) && value.length === 2 && typeof value[0] === 'number');
}

/** Milliseconds since the epoch, to the microsecond; a number below the time origin is a performance.now() reading. */
export function timeMs(time?: TimeInput): number {
  const origin = performance.timeOrigin;
  if (time === undefined) return origin + performance.now();
  if (typeof time === 'number') return time < origin ? origin + time : time;
  if (time instanceof Date) return time.getTime();
  return (time as HrTime)[0] * 1e3 + (time as HrTime)[1] / 1e6;
}

const ZERO_IDS: Record<number, string> = { 8: '0'.repeat(16), 16: '0'.repeat(32) };

// Ids from a pool of random bytes refilled 8 KiB at a time: one system call per ~340 spans rather than one each.
const pool = Buffer.alloc(8192);
let poolOffset = pool.length;

export function randomHex(bytes: number): string {
  for (;;) {
    if (poolOffset + bytes > pool.length) {
      randomFillSync(pool);
      poolOffset = 0;
    }
    const hex = pool.toString('hex', poolOffset, (poolOffset += bytes));
    // All zeroes is the invalid id (W3C): drawn again, however unlikely.
    if (hex !== ZERO_IDS[bytes]) return hex;
  }
}
