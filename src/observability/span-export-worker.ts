// The export thread (span-export-thread.ts starts it): spans recorded on the serving thread arrive here in batches
// and go out through the OpenTelemetry SDK's batch span processor and OTLP/HTTP transport (otlp-trace-exporter.ts),
// configured by the standard OTEL_* variables (this thread has a copy of the process environment). The SDK's warnings, spans dropped
// from a full queue among them, go back to the serving thread, which logs and counts them.
import { parentPort, workerData } from 'node:worker_threads';
import { DiagLogLevel, diag } from '@opentelemetry/api';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { otlpTraceExporter, otlpTracesProtocol } from './otlp-trace-exporter.js';
import { ExportedSpan } from './readable-span.js';
import { SpanDecoder } from './span-wire.js';
import type { FromExportThread, SpanExportWorkerData, ToExportThread } from './span-export-thread.js';

const port = parentPort!;
const { url, maxQueueSize } = workerData as SpanExportWorkerData;

const report = (message: string, ...args: unknown[]) =>
  port.postMessage({ type: 'diagnostic', message, args: args.map(String) } satisfies FromExportThread);
const ignore = () => undefined;
diag.setLogger({ error: report, warn: report, info: ignore, debug: ignore, verbose: ignore }, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });

const resource = resourceFromAttributes({ 'service.name': 'modelgate' }).merge(detectResources({ detectors: [envDetector] }));
const processor = new BatchSpanProcessor(otlpTraceExporter(url, otlpTracesProtocol(process.env)), maxQueueSize === undefined ? {} : { maxQueueSize });

const decoder = new SpanDecoder();

port.on('message', (message: ToExportThread) => {
  if (message.type === 'spans') {
    for (const span of decoder.decode(message.batch)) processor.onEnd(new ExportedSpan(span, resource));
  } else if (message.type === 'handed') {
    port.postMessage({ type: 'handed', id: message.id } satisfies FromExportThread);
  } else if (message.type === 'shutdown') {
    // Exports what is queued, then answers; the serving thread ends this thread.
    processor.shutdown().then(
      () => port.postMessage({ type: 'shut' } satisfies FromExportThread),
      (err: unknown) => {
        report('span export failed at shutdown', err);
        port.postMessage({ type: 'shut' } satisfies FromExportThread);
      },
    );
  }
});
port.postMessage({ type: 'ready' } satisfies FromExportThread);
