// The OTLP/HTTP span exporter of the export thread, by the standard protocol variable
// (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL): http/protobuf, the standard's default, is
// encoded by otlp-protobuf.ts; http/json by the SDK's own exporter. Both go through the SDK's OTLP/HTTP transport, so
// the endpoint, headers, timeout, compression and retries come from the standard variables as they would for the SDK.
// gRPC is not shipped: it falls back to http/protobuf, with a warning.
import { diag } from '@opentelemetry/api';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ProtobufTraceSerializer, type ISerializer, type IExportTraceServiceResponse } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { OtlpProtobufWriter } from './otlp-protobuf.js';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** The protocol the standard variables ask for (http/protobuf when unset or unsupported). */
export function otlpTracesProtocol(env: NodeJS.ProcessEnv): OtlpProtocol {
  const asked = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || 'http/protobuf').toLowerCase();
  if (asked === 'http/protobuf' || asked === 'http/json') return asked;
  diag.warn(`OTLP protocol "${asked}" is not supported by this gateway: exporting traces over http/protobuf`);
  return 'http/protobuf';
}

export function otlpTraceExporter(url: string | undefined, protocol: OtlpProtocol): SpanExporter {
  if (protocol === 'http/json') return new OTLPTraceExporter({ url });
  const writer = new OtlpProtobufWriter();
  const serializer: ISerializer<ReadableSpan[], IExportTraceServiceResponse> = {
    serializeRequest: (spans) => writer.exportRequest(spans),
    deserializeResponse: (data) => ProtobufTraceSerializer.deserializeResponse(data),
  };
  const options = convertLegacyHttpOptions({ url }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' });
  return new OTLPExporterBase(createOtlpHttpExportDelegate(options, serializer));
}
