// The gateway's own tracer (gateway-tracer.ts) with its spans carried over the export thread's wire format
// (span-wire.ts) and handed, as the export thread hands them, to the SDK's in-memory exporter: tests see ReadableSpans
// exactly as they would be exported.
import { InMemorySpanExporter, AlwaysOnSampler, ParentBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { GatewayTracer, type GatewaySpanSink } from '../../src/observability/gateway-tracer.js';
import { ExportedSpan } from '../../src/observability/readable-span.js';
import { SpanDecoder, SpanEncoder } from '../../src/observability/span-wire.js';

export function recordedSpans(sampler: Sampler = new ParentBasedSampler({ root: new AlwaysOnSampler() })): { tracer: GatewayTracer; exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  const resource = resourceFromAttributes({ 'service.name': 'modelgate-test' });
  const encoder = new SpanEncoder();
  const decoder = new SpanDecoder();
  const exportNow = () => exporter.export(decoder.decode(structuredClone(encoder.take())).map((span) => new ExportedSpan(span, resource)), () => undefined);
  const sink: GatewaySpanSink = {
    span: (span) => (encoder.add(span), exportNow()),
    request: (request) => (encoder.addRequest(request), exportNow()),
    attempt: (attempt) => (encoder.addAttempt(attempt), exportNow()),
  };
  return { tracer: new GatewayTracer(sampler, sink), exporter };
}
