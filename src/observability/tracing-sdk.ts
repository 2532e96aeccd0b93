// Starts tracing when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set (config.tracing): the OpenTelemetry SDK, configured
// by the standard OTEL_* variables (otlp-tracer-provider.ts), becomes the process's tracer (tracer.ts). None of the SDK
// is imported unless tracing is on.
import { DiagLogLevel, diag } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { OtlpProtocol } from '../config.js';
import { setActiveTracer } from './tracer.js';

export interface RunningTracing {
  /** Exports what is buffered and stops (graceful shutdown). */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** http/protobuf unless given (config.tracesProtocol). */
  protocol?: OtlpProtocol;
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
/** The batch processor reports spans it dropped as this warning, when it next accepts one (it has no counter). */
const DROPPED = /^Dropped (\d+) spans because maxQueueSize reached/;

/** The traces URL the OTLP/HTTP exporter would derive from the standard variables, from the gateway's environment. */
export function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

export async function startOtlpTracing(
  env: NodeJS.ProcessEnv = process.env,
  options: TracingOptions = {},
): Promise<RunningTracing> {
  const { startOtlpTracer } = await import('./otlp-tracer-provider.js');
  const warn = sdkWarning(options);
  if (warn)
    diag.setLogger(
      { error: warn, warn, info: ignore, debug: ignore, verbose: ignore },
      { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
    );
  const otlp = await startOtlpTracer({
    url: otlpTracesUrl(env),
    protocol: options.protocol ?? 'http/protobuf',
    // The SDK reads OTEL_BSP_* from the process environment, so that is where an operator's own size would be.
    maxQueueSize: process.env.OTEL_BSP_MAX_QUEUE_SIZE?.trim() ? undefined : DEFAULT_MAX_QUEUE_SIZE,
  });
  setActiveTracer(otlp.tracer);
  return {
    async shutdown() {
      setActiveTracer(undefined);
      await otlp.shutdown().catch((err: unknown) => warn?.('span export failed at shutdown', err));
      // The SDK's warnings went to this gateway's logger: not after its stop.
      if (warn) diag.disable();
    },
  };
}

const ignore = () => undefined;

/** The SDK's warnings to the logger, and dropped spans to the counter; undefined when neither is wanted. */
function sdkWarning({
  logger,
  droppedSpans,
}: TracingOptions): ((message: string, ...args: unknown[]) => void) | undefined {
  if (!logger && !droppedSpans) return undefined;
  return (message: string, ...args: unknown[]) => {
    const dropped = DROPPED.exec(message);
    if (dropped) droppedSpans?.(Number(dropped[1]));
    logger?.warn({ otel: args.length > 0 ? args.map(String) : undefined }, message);
  };
}
