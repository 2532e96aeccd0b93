// A recorded span (recording-tracer.ts) as the SDK's ReadableSpan: what its span processors and exporters take. Used
// on the export thread (span-export-worker.ts), and by tests with the SDK's in-memory exporter. The ReadableSpan view
// (an attributes object, HrTime arrays, contexts) is built only when something reads it: the gateway's own exporter
// (otlp-protobuf.ts) writes the recorded fields as they are, and the export thread's young generation, which holds
// every span until its batch is exported, is spared those objects.
import { createTraceState, type Attributes, type AttributeValue, type HrTime, type Link, type SpanContext, type SpanStatus } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { FinishedSpan } from './recording-tracer.js';

type InstrumentationScope = ReadableSpan['instrumentationScope'];

export const INSTRUMENTATION_SCOPE: InstrumentationScope = { name: 'modelgate' };

export class ExportedSpan implements ReadableSpan {
  readonly name: string;
  readonly kind: FinishedSpan['kind'];
  readonly ended = true;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  private attributesObject: Attributes | undefined = undefined;

  constructor(
    /** The span as recorded: what otlp-protobuf.ts writes. */
    readonly recorded: FinishedSpan,
    readonly resource: Resource,
    readonly instrumentationScope: InstrumentationScope = INSTRUMENTATION_SCOPE,
  ) {
    this.name = recorded.name;
    this.kind = recorded.kind;
  }

  spanContext(): SpanContext {
    const { traceId, spanId, traceFlags, traceState } = this.recorded;
    return traceState ? { traceId, spanId, traceFlags, traceState: createTraceState(traceState) } : { traceId, spanId, traceFlags };
  }

  get parentSpanContext(): SpanContext | undefined {
    const { traceId, parentSpanId, parentTraceFlags, parentIsRemote } = this.recorded;
    return parentSpanId === undefined ? undefined : { traceId, spanId: parentSpanId, traceFlags: parentTraceFlags, isRemote: parentIsRemote };
  }

  get startTime(): HrTime {
    return hrTime(this.recorded.startMs);
  }

  get endTime(): HrTime {
    return hrTime(this.recorded.endMs);
  }

  get duration(): HrTime {
    return hrTime(this.recorded.endMs - this.recorded.startMs);
  }

  get status(): SpanStatus {
    const { statusCode: code, statusMessage: message } = this.recorded;
    return message === undefined ? { code } : { code, message };
  }

  get attributes(): Attributes {
    if (this.attributesObject === undefined) {
      const pairs = this.recorded.attributes;
      const entries: [string, AttributeValue][] = [];
      for (let i = 0; i < pairs.length; i += 2) entries.push([pairs[i] as string, pairs[i + 1] as AttributeValue]);
      // Own properties for every key, `__proto__` included (an assignment would set the prototype instead).
      this.attributesObject = Object.fromEntries(entries);
    }
    return this.attributesObject;
  }

  get links(): Link[] {
    return (this.recorded.links ?? []).map(({ attributes, ...context }) => (attributes ? { context, attributes } : { context }));
  }

  get events(): TimedEvent[] {
    return (this.recorded.events ?? []).map(({ name, timeMs, attributes }) => (attributes ? { name, time: hrTime(timeMs), attributes } : { name, time: hrTime(timeMs) }));
  }
}

/**
 * Milliseconds (since the epoch, or a duration) as [seconds, nanoseconds], to the microsecond: what the clock gives
 * (performance.now()), and what a double holds exactly at today's epoch milliseconds (below that is rounding noise).
 */
export function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  const micros = Math.round((ms - seconds * 1000) * 1000);
  // Rounding can reach a whole second.
  return micros >= 1e6 ? [seconds + 1, (micros - 1e6) * 1000] : [seconds, micros * 1000];
}
