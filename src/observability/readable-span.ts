// A recorded span (recording-tracer.ts) as the SDK's ReadableSpan: what its span processors and exporters take. Used
// on the export thread (span-export-worker.ts), and by tests with the SDK's in-memory exporter.
import { createTraceState, type Attributes, type AttributeValue, type HrTime, type SpanContext } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { FinishedSpan } from './recording-tracer.js';

type InstrumentationScope = ReadableSpan['instrumentationScope'];

export const INSTRUMENTATION_SCOPE: InstrumentationScope = { name: 'modelgate' };

export function toReadableSpan(span: FinishedSpan, resource: Resource, scope: InstrumentationScope = INSTRUMENTATION_SCOPE): ReadableSpan {
  const spanContext: SpanContext = { traceId: span.traceId, spanId: span.spanId, traceFlags: span.traceFlags };
  if (span.traceState) spanContext.traceState = createTraceState(span.traceState);
  const attributes: Attributes = {};
  for (let i = 0; i < span.attributes.length; i += 2) attributes[span.attributes[i] as string] = span.attributes[i + 1] as AttributeValue;
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => spanContext,
    parentSpanContext: span.parentSpanId === undefined
      ? undefined
      : { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: span.parentTraceFlags, isRemote: span.parentIsRemote },
    startTime: hrTime(span.startMs),
    endTime: hrTime(span.endMs),
    duration: hrTime(span.endMs - span.startMs),
    status: span.statusMessage === undefined ? { code: span.statusCode } : { code: span.statusCode, message: span.statusMessage },
    attributes,
    links: (span.links ?? []).map(({ attributes, ...context }) => (attributes ? { context, attributes } : { context })),
    events: (span.events ?? []).map(({ name, timeMs, attributes }) => (attributes ? { name, time: hrTime(timeMs), attributes } : { name, time: hrTime(timeMs) })),
    ended: true,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
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
