// Starts the OpenTelemetry SDK when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set (config.tracing): spans go out over
// OTLP/HTTP in batches, configured by the standard OTEL_* variables (endpoint, headers, OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER(_ARG), OTEL_BSP_*), which the SDK reads from the process
// environment. The SDK is imported only then: with tracing off it is never loaded.
import { DiagLogLevel, diag } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { setActiveTracer } from './tracer.js';

export interface RunningTracing {
  /** Exports what is buffered and stops (graceful shutdown). */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** Where the SDK's own warnings go (an export that failed, spans dropped from a full queue). */
  logger?: Logger;
  /** Spans the batch processor dropped because its queue was full (counted by metrics). */
  droppedSpans?: (count: number) => void;
}

/**
 * Spans waiting for export, unless OTEL_BSP_MAX_QUEUE_SIZE says otherwise. The SDK's 2048 is half a second of a busy
 * gateway (two spans per request, ~2000 requests/s on one core): one slow export and spans are dropped. 16384 spans
 * are some 20 MB at worst.
 */
export const DEFAULT_MAX_QUEUE_SIZE = 16_384;
/** The SDK reports spans it dropped as this warning, when it next accepts one (it has no counter of its own). */
const DROPPED = /^Dropped (\d+) spans because maxQueueSize reached/;

/** The traces URL the OTLP/HTTP exporter would derive from the standard variables, from the gateway's environment. */
export function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

export async function startOtlpTracing(env: NodeJS.ProcessEnv = process.env, options: TracingOptions = {}): Promise<RunningTracing> {
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const reporting = reportSdkWarnings(options);
  const resource = resources
    .resourceFromAttributes({ 'service.name': 'modelgate' })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  // The SDK reads OTEL_BSP_* from the process environment, so that is where an operator's own size would be.
  const queue = process.env.OTEL_BSP_MAX_QUEUE_SIZE?.trim() ? {} : { maxQueueSize: DEFAULT_MAX_QUEUE_SIZE };
  // The sampler comes from OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG (the provider reads them when given none).
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: otlpTracesUrl(env) }), queue)] });
  // The W3C trace-context (and baggage) propagator and the global provider, but no context manager: the request's
  // context is passed explicitly (request-span.ts), and the AsyncLocalStorage manager would make every async
  // resource of every request carry it, the largest part of tracing's cost per request.
  provider.register({ contextManager: null });
  setActiveTracer(provider.getTracer('modelgate'));
  return {
    async shutdown() {
      setActiveTracer(undefined);
      await provider.shutdown();
      // The SDK's warnings went to this gateway's logger: not after its stop.
      if (reporting) diag.disable();
    },
  };
}

/** Routes the SDK's warnings to the logger and the drop counter; false when there is neither. */
function reportSdkWarnings({ logger, droppedSpans }: TracingOptions): boolean {
  if (!logger && !droppedSpans) return false;
  const warn = (message: string, ...args: unknown[]) => {
    const dropped = DROPPED.exec(message);
    if (dropped) droppedSpans?.(Number(dropped[1]));
    logger?.warn({ otel: args.length > 0 ? args.map(String) : undefined }, message);
  };
  const ignore = () => undefined;
  diag.setLogger({ error: warn, warn, info: ignore, debug: ignore, verbose: ignore }, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  return true;
}
