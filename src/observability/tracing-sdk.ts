// Starts the OpenTelemetry SDK when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set (config.tracing): spans go out over
// OTLP/HTTP in batches, configured by the standard OTEL_* variables (endpoint, headers, OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES, sampler). The SDK is imported only then: with tracing off it is never loaded.
import { trace } from '@opentelemetry/api';
import { setActiveTracer } from './tracer.js';

export interface RunningTracing {
  /** Exports what is buffered and stops (graceful shutdown). */
  shutdown(): Promise<void>;
}

/** The traces URL the OTLP/HTTP exporter would derive from the standard variables, from the gateway's environment. */
export function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

export async function startOtlpTracing(env: NodeJS.ProcessEnv = process.env): Promise<RunningTracing> {
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const resource = resources
    .resourceFromAttributes({ 'service.name': 'modelgate' })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: otlpTracesUrl(env) }))] });
  // Registers the AsyncLocalStorage context manager and the W3C trace-context propagator along with the provider.
  provider.register();
  setActiveTracer(trace.getTracer('modelgate'));
  return {
    async shutdown() {
      setActiveTracer(undefined);
      await provider.shutdown();
    },
  };
}
