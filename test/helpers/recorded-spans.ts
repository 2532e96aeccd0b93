// The gateway's own tracer over the OpenTelemetry SDK, as tracing-sdk.ts builds it, with a simple processor handing
// each ended span to the SDK's in-memory exporter: tests see the ReadableSpans that would be exported.
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import { GatewayTracer } from '../../src/observability/gateway-tracer.js';

export function recordedSpans(sampler: Sampler = new ParentBasedSampler({ root: new AlwaysOnSampler() })): {
  tracer: GatewayTracer;
  exporter: InMemorySpanExporter;
} {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    sampler,
    resource: resourceFromAttributes({ 'service.name': 'modelgate-test' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  return { tracer: new GatewayTracer(provider.getTracer('modelgate'), new W3CTraceContextPropagator()), exporter };
}
