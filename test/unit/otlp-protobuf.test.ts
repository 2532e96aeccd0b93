// The gateway's OTLP protobuf encoding against the SDK's: both requests decoded by the SDK's generated
// opentelemetry-proto classes must be the same message, for the gateway's own spans and for any span the API allows
// (every attribute type, events, links, trace state, remote parents, several resources and scopes).
import { DiagLogLevel, SpanKind, SpanStatusCode, TraceFlags, createTraceState, diag, type Attributes } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OtlpProtobufWriter } from '../../src/observability/otlp-protobuf.js';
import { otlpTracesProtocol } from '../../src/observability/otlp-trace-exporter.js';
import { ExportedSpan, hrTime } from '../../src/observability/readable-span.js';
import type { FinishedSpan } from '../../src/observability/recording-tracer.js';
import { decodeProtobufTraces } from '../helpers/otlp-request.js';

const resource = resourceFromAttributes({ 'service.name': 'modelgate', 'process.pid': 4242, 'host.arch': 'amd64' });
const otherResource = resourceFromAttributes({ 'service.name': 'other', 'deployment.environment.name': 'test' });

function sameMessage(spans: ReadableSpan[], writer = new OtlpProtobufWriter()): void {
  const ours = decodeProtobufTraces(writer.exportRequest(spans));
  const sdk = decodeProtobufTraces(ProtobufTraceSerializer.serializeRequest(spans)!);
  expect(ours).toEqual(sdk);
}

const RECORDED: FinishedSpan = {
  name: 'chat openai/gpt-test', kind: SpanKind.SERVER, traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED, traceState: undefined, parentSpanId: undefined, parentTraceFlags: 0, parentIsRemote: false,
  startMs: 1_790_000_000_123.456, endMs: 1_790_000_000_125.5, statusCode: SpanStatusCode.UNSET, statusMessage: undefined,
  attributes: ['gen_ai.operation.name', 'chat', 'gen_ai.usage.input_tokens', 12], events: undefined, links: undefined,
};

/** A span as the gateway records and exports it: the writer takes its recorded fields. */
function recorded(overrides: Partial<FinishedSpan> = {}, on = resource): ReadableSpan {
  return new ExportedSpan({ ...RECORDED, ...overrides }, on);
}

/** A span as any other ReadableSpan (a plain object, as the SDK's own spans are read): the writer takes its interface. */
function span(overrides: Partial<ReadableSpan> & { attributes?: Attributes } = {}): ReadableSpan {
  const base = recorded();
  return {
    name: base.name, kind: base.kind, spanContext: () => base.spanContext(), parentSpanContext: base.parentSpanContext,
    startTime: base.startTime, endTime: base.endTime, duration: base.duration, status: base.status, attributes: base.attributes,
    links: base.links, events: base.events, ended: true, resource: base.resource, instrumentationScope: base.instrumentationScope,
    droppedAttributesCount: 0, droppedEventsCount: 0, droppedLinksCount: 0,
    ...overrides,
  };
}

describe('OTLP protobuf export request', () => {
  it('is the SDK serializer\'s message for a request span and its attempt, as recorded', () => {
    const request = recorded({
      attributes: [
        'gen_ai.operation.name', 'chat', 'gen_ai.provider.name', 'openai', 'gen_ai.request.model', 'openai/gpt-test',
        'gen_ai.response.finish_reasons', ['stop'], 'gen_ai.usage.output_tokens', 34, 'http.response.status_code', 200,
      ],
      traceState: 'vendor=a,other=b', parentSpanId: '00f067aa0ba902b7', parentTraceFlags: 1, parentIsRemote: true,
    });
    const attempt = recorded({
      name: 'chat gpt-test-2026', kind: SpanKind.CLIENT, spanId: '00f067aa0ba902b7', parentSpanId: 'b7ad6b7169203331', parentTraceFlags: 1,
      statusCode: SpanStatusCode.ERROR, statusMessage: 'upstream answered 503', startMs: 1_790_000_000_999.9996, endMs: 1_790_000_001_000.0004,
      attributes: ['error.type', 'http_5xx', 'server.port', 443, 'cjk', '模型网关', 'long', 'x'.repeat(300), '__proto__', 'an attribute like any other'],
      events: [{ name: 'retry', timeMs: 1_790_000_001_000, attributes: { 'retry.count': 1 } }],
      links: [{ traceId: '11111111111111111111111111111111', spanId: '2222222222222222', traceFlags: 1, attributes: { why: 'retry' } }],
    });
    // With a span from elsewhere in the same request, and the same keys again (the writer keeps them encoded).
    sameMessage([request, attempt, span(), request]);
  });

  it('is the SDK serializer\'s message for any recorded attributes and times (property)', () => {
    const value = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.array(fc.string(), { maxLength: 3 }));
    const writer = new OtlpProtobufWriter();
    fc.assert(
      fc.property(
        // Keys as a span records them (each once). Not array indexes: an object (the SDK's view) lists those first, and
        // the order of attributes carries no meaning in OTLP, while the comparison here is by position.
        fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 60 }).filter((key) => !/^(0|[1-9]\d*)$/.test(key)), value), { selector: ([key]) => key, maxLength: 12 }),
        fc.integer({ min: 0, max: 4_000_000_000_000 }), fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 10_000_000 }),
        (pairs, wholeMs, micros, durationMicros) => {
          const startMs = wholeMs + micros / 1000;
          sameMessage([recorded({ attributes: pairs.flat(), startMs, endMs: startMs + durationMicros / 1000 }), recorded()], writer);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('groups spans by resource and by scope as the SDK does', () => {
    sameMessage([
      span(),
      span({ resource: otherResource }),
      recorded({}, otherResource),
      span({ instrumentationScope: { name: 'other-scope', version: '1.2.3', schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' } }),
      span(),
    ]);
  });

  it('carries events, links, trace state, remote parents and dropped counts', () => {
    sameMessage([
      span({
        spanContext: () => ({ traceId: 'AF7651916CD43DD8448EB211C80319C0', spanId: 'B7AD6B7169203331', traceFlags: 1, traceState: createTraceState('vendor=a,other=b') }),
        parentSpanContext: { traceId: 'af7651916cd43dd8448eb211c80319c0', spanId: '00f067aa0ba902b7', traceFlags: 1, isRemote: true },
        events: [
          { name: 'exception', time: hrTime(1_790_000_000_124), attributes: { 'exception.message': 'boom', 'exception.type': 'Error' } },
          { name: 'bare', time: [1_790_000_000, 999_999_999], droppedAttributesCount: 2 },
        ],
        links: [
          { context: { traceId: '11111111111111111111111111111111', spanId: '2222222222222222', traceFlags: 0, isRemote: true, traceState: createTraceState('k=v') }, attributes: { why: 'retry' }, droppedAttributesCount: 1 },
          { context: { traceId: '33333333333333333333333333333333', spanId: '4444444444444444', traceFlags: 1 } },
        ],
        droppedAttributesCount: 3, droppedEventsCount: 4, droppedLinksCount: 5,
        status: { code: SpanStatusCode.OK },
      }),
    ]);
  });

  it('encodes every attribute type, long strings and non-ASCII text', () => {
    sameMessage([
      span({
        attributes: {
          empty: '', short: 'é', cjk: '模型网关'.repeat(11), long: 'x'.repeat(300), longUnicode: 'ü'.repeat(100),
          yes: true, no: false, zero: 0, negative: -42, big: 2 ** 53 + 2, huge: 1e20, hugeNegative: -1e20, pi: 3.25, tiny: -1e-300,
          strings: ['a', 'b', ''], numbers: [1, 2.5, -3], booleans: [true, false], withNulls: ['a', null, 'c'] as unknown as string[], none: [],
          bytes: new Uint8Array([0, 1, 255]) as unknown as string,
        },
      }),
    ]);
  });

  it('is the SDK serializer\'s message for any attributes, times and names (property)', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 80 });
    const value = fc.oneof(
      text, fc.boolean(), fc.integer(), fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.array(text, { maxLength: 4 }), fc.array(fc.integer(), { maxLength: 4 }),
    );
    const writer = new OtlpProtobufWriter();
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 60 }), value, { maxKeys: 12 }),
        text,
        fc.integer({ min: 0, max: 4_000_000_000 }), fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 0, max: 10_000_000 }),
        (attributes, name, seconds, nanos, durationNanos) => {
          const start = [seconds, nanos] as [number, number];
          const endNanos = nanos + durationNanos;
          const end = [seconds + Math.floor(endNanos / 1e9), endNanos % 1e9] as [number, number];
          sameMessage([span({ name, attributes, startTime: start, endTime: end }), span({ attributes })], writer);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('grows its buffer for a large batch and copies each request out of it', () => {
    const writer = new OtlpProtobufWriter();
    const many = Array.from({ length: 600 }, (_, i) => span({ attributes: { i, text: 'y'.repeat(i % 200) } }));
    const first = writer.exportRequest(many);
    const copy = Uint8Array.from(first);
    sameMessage(many, writer);
    // The next request reused the buffer; the first one's bytes are its own.
    expect(first).toEqual(copy);
  });
});

describe('OTLP protocol from the standard variables', () => {
  it('is http/protobuf by default, the traces variable first, and http/protobuf with a warning for gRPC', () => {
    const warnings: string[] = [];
    diag.setLogger({ warn: (message: string) => warnings.push(message), error: () => undefined, info: () => undefined, debug: () => undefined, verbose: () => undefined }, DiagLogLevel.WARN);
    try {
      expect(otlpTracesProtocol({})).toBe('http/protobuf');
      expect(otlpTracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('http/json');
      expect(otlpTracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toBe('http/protobuf');
      expect(otlpTracesProtocol({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: ' HTTP/JSON ' })).toBe('http/json');
      expect(warnings).toEqual([]);
      expect(otlpTracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toBe('http/protobuf');
      expect(warnings).toEqual(['OTLP protocol "grpc" is not supported by this gateway: exporting traces over http/protobuf']);
    } finally {
      diag.disable();
    }
  });
});
