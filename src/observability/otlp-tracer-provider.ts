// The OpenTelemetry SDK as the gateway runs it when tracing is on (imported only then, by tracing-sdk.ts): a
// BasicTracerProvider whose sampler comes from OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG (the provider reads them
// itself when given none), a BatchSpanProcessor (OTEL_BSP_*), and the official OTLP/HTTP exporter of the protocol
// asked for: protobuf (exporter-trace-otlp-proto) or JSON (exporter-trace-otlp-http). Headers, timeout and compression
// come from the standard OTEL_EXPORTER_OTLP_* variables, read by the exporter.
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { OtlpProtocol } from '../config.js';
import { GatewayTracer } from './gateway-tracer.js';

export interface OtlpTracerOptions {
  /** The OTLP/HTTP traces URL (the exporter derives it from the process environment when absent). */
  url: string | undefined;
  protocol: OtlpProtocol;
  /** Spans waiting for export; undefined leaves it to OTEL_BSP_MAX_QUEUE_SIZE or the SDK's default. */
  maxQueueSize: number | undefined;
}

export interface OtlpTracer {
  tracer: GatewayTracer;
  /** Exports what the batch processor holds and stops the exporter. */
  shutdown(): Promise<void>;
}

/** The scope name of every span the gateway exports. */
const SCOPE = 'modelgate';

export async function startOtlpTracer(options: OtlpTracerOptions): Promise<OtlpTracer> {
  const exporter = await otlpTraceExporter(options.url, options.protocol);
  // service.name is modelgate unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise; telemetry.sdk.*
  // come from the SDK's default resource (the provider uses it only when given no resource at all).
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': SCOPE }))
    .merge(detectResources({ detectors: [envDetector] }));
  const processor = new BatchSpanProcessor(
    exporter,
    options.maxQueueSize === undefined ? {} : { maxQueueSize: options.maxQueueSize },
  );
  const provider = new BasicTracerProvider({ resource, spanProcessors: [processor] });
  return {
    tracer: new GatewayTracer(provider.getTracer(SCOPE), new W3CTraceContextPropagator()),
    shutdown: () => provider.shutdown(),
  };
}

async function otlpTraceExporter(url: string | undefined, protocol: OtlpProtocol): Promise<SpanExporter> {
  // Only the chosen exporter is loaded: each brings its own serializer.
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter({ url });
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url });
}
