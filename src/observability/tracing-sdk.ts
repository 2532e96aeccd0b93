// Starts tracing when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set (config.tracing): spans are recorded on the serving
// thread (gateway-tracer.ts) and exported by the OpenTelemetry SDK on a thread of their own (span-export-thread.ts),
// over OTLP/HTTP in batches, configured by the standard OTEL_* variables (endpoint, headers, OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER(_ARG), OTEL_BSP_*) read from the process environment. None of it is
// imported unless tracing is on.
import { DiagLogLevel, diag } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { setActiveTracer } from './tracer.js';

export interface RunningTracing {
  /** Resolves once every span ended so far has reached the exporting SDK's batch queue (tests). */
  handed(): Promise<void>;
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
  const [{ GatewayTracer }, { samplerFromEnv }, { SpanExportThread }] = await Promise.all([
    import('./gateway-tracer.js'),
    import('./sampler-from-env.js'),
    import('./span-export-thread.js'),
  ]);
  const warn = sdkWarning(options);
  if (warn) diag.setLogger({ error: warn, warn, info: ignore, debug: ignore, verbose: ignore }, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  // The SDK reads OTEL_BSP_* from the process environment, so that is where an operator's own size would be.
  const exportThread = await SpanExportThread.start({
    url: otlpTracesUrl(env),
    ...(process.env.OTEL_BSP_MAX_QUEUE_SIZE?.trim() ? {} : { maxQueueSize: DEFAULT_MAX_QUEUE_SIZE }),
    diagnostic: (message, args) => warn?.(message, ...args),
  });
  // The sampler comes from OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG, as the SDK's provider would read them.
  setActiveTracer(new GatewayTracer(samplerFromEnv(process.env), exportThread));
  return {
    handed: () => exportThread.handed(),
    async shutdown() {
      setActiveTracer(undefined);
      await exportThread.shutdown();
      // The SDK's warnings went to this gateway's logger: not after its stop.
      if (warn) diag.disable();
    },
  };
}

const ignore = () => undefined;

/** The SDK's warnings (either thread's) to the logger, and dropped spans to the counter; undefined when neither. */
function sdkWarning({ logger, droppedSpans }: TracingOptions): ((message: string, ...args: unknown[]) => void) | undefined {
  if (!logger && !droppedSpans) return undefined;
  return (message: string, ...args: unknown[]) => {
    const dropped = DROPPED.exec(message);
    if (dropped) droppedSpans?.(Number(dropped[1]));
    logger?.warn({ otel: args.length > 0 ? args.map(String) : undefined }, message);
  };
}
