// OTLP/HTTP trace export bodies, decoded by the SDK's own generated protobuf classes (http/protobuf) or parsed
// (http/json): what a collector would read.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// The generated classes of opentelemetry-proto that the SDK's protobuf serializer encodes with.
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js');
const ExportTraceServiceRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/** A protobuf ExportTraceServiceRequest as a plain object: every field (defaults too), longs as strings, bytes as hex. */
export function decodeProtobufTraces(body: Uint8Array): Record<string, unknown> {
  const message = ExportTraceServiceRequest.decode(body);
  const object = ExportTraceServiceRequest.toObject(message, {
    defaults: true,
    longs: String,
    bytes: Array,
    arrays: true,
    oneofs: true,
  });
  return hexBytes(object) as Record<string, unknown>;
}

export interface ExportedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
  /** The resource's attributes. */
  resource: Record<string, unknown>;
  scope: string;
}

/** The spans of one export body, by its content type. */
export function exportedSpans(body: Buffer, contentType: string | undefined): ExportedSpan[] {
  const request = (contentType?.includes('json') ? JSON.parse(body.toString('utf8')) : decodeProtobufTraces(body)) as {
    resourceSpans: {
      resource: { attributes: KeyValue[] };
      scopeSpans: { scope: { name: string }; spans: RawSpan[] }[];
    }[];
  };
  return request.resourceSpans.flatMap((resourceSpans) =>
    resourceSpans.scopeSpans.flatMap((scopeSpans) =>
      scopeSpans.spans.map((span) => ({
        name: span.name,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        attributes: attributeMap(span.attributes),
        resource: attributeMap(resourceSpans.resource.attributes),
        scope: scopeSpans.scope.name,
      })),
    ),
  );
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}
interface RawSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: KeyValue[];
}

function attributeMap(attributes: KeyValue[]): Record<string, unknown> {
  return Object.fromEntries(attributes.map(({ key, value }) => [key, plainValue(value)]));
}

function plainValue(value: Record<string, unknown>): unknown {
  if (value.arrayValue)
    return ((value.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map(plainValue);
  for (const field of ['stringValue', 'boolValue', 'doubleValue']) if (value[field] !== undefined) return value[field];
  if (value.intValue !== undefined) return Number(value.intValue);
  return undefined;
}

/** bytes fields (decoded as arrays of numbers) as lowercase hex, as the JSON encoding writes ids. */
function hexBytes(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) {
    if (/Id$|bytesValue/.test(key)) return Buffer.from(value as number[]).toString('hex');
    return value.map((item) => hexBytes(item));
  }
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hexBytes(v, k)]));
  return value;
}

/** A collector's success answer to an export, in the request's encoding (an empty ExportTraceServiceResponse). */
export function answerExport(
  req: { headers: { 'content-type'?: string } },
  res: { writeHead(status: number, headers: Record<string, string>): { end(body?: string): unknown } },
): void {
  if (req.headers['content-type']?.includes('json'))
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
}
