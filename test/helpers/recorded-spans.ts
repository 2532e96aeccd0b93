// The gateway's own tracer (recording-tracer.ts) with its spans handed, as the export thread hands them, to the SDK's
// in-memory exporter: tests see ReadableSpans exactly as they would be exported.
import { InMemorySpanExporter, AlwaysOnSampler, ParentBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { RecordingTracer } from '../../src/observability/recording-tracer.js';
import { toReadableSpan } from '../../src/observability/readable-span.js';

export function recordedSpans(sampler: Sampler = new ParentBasedSampler({ root: new AlwaysOnSampler() })): { tracer: RecordingTracer; exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  const resource = resourceFromAttributes({ 'service.name': 'modelgate-test' });
  const tracer = new RecordingTracer(sampler, (span) => exporter.export([toReadableSpan(span, resource)], () => undefined));
  return { tracer, exporter };
}
