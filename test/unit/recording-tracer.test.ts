// The gateway's tracer records spans as plain data under the API's contract (sampling at the start, parent and trace
// state continued, writes after the end ignored with the SDK's warning), the wire format carries them to the export
// thread unchanged, and the standard sampler variables build the SDK's samplers.
import { DiagLogLevel, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, diag, trace } from '@opentelemetry/api';
import { AlwaysOffSampler, ParentBasedSampler, SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientParentSpanContext } from '../../src/observability/client-trace-context.js';
import { RecordingTracer, type FinishedSpan } from '../../src/observability/recording-tracer.js';
import { samplerFromEnv } from '../../src/observability/sampler-from-env.js';
import { SpanDecoder, SpanEncoder } from '../../src/observability/span-wire.js';
import { recordedSpans } from '../helpers/recorded-spans.js';

const diagnostics: string[] = [];
beforeEach(() => {
  diagnostics.length = 0;
  const record = (message: string) => void diagnostics.push(message);
  diag.setLogger({ error: record, warn: record, info: () => undefined, debug: () => undefined, verbose: () => undefined }, DiagLogLevel.WARN);
});
afterEach(() => diag.disable());

const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

/** The client's span as the parent context of a span (the root context when it sent none). */
function clientParentContext(headers: Record<string, string>) {
  const parent = clientParentSpanContext(headers);
  return parent === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, parent);
}

describe('RecordingTracer', () => {
  it('records a root span and its child, with attributes, name, status and times', () => {
    const { tracer, exporter } = recordedSpans();
    const root = tracer.startSpan('chat', { kind: SpanKind.SERVER, attributes: { 'gen_ai.operation.name': 'chat' } });
    const child = tracer.startSpan('chat gpt', { kind: SpanKind.CLIENT, attributes: { a: 1 } }, trace.setSpan(ROOT_CONTEXT, root));
    child.setAttribute('a', 2).setAttribute('list', ['x', 'y']).setAttribute('ignored', undefined as unknown as string).setAttribute('', 'no key');
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'http_5xx' }).end();
    root.updateName('chat openai/gpt').setStatus({ code: SpanStatusCode.OK }).setStatus({ code: SpanStatusCode.ERROR, message: 'late' });
    root.setStatus({ code: SpanStatusCode.UNSET });
    root.end();
    const [exportedChild, exportedRoot] = exporter.getFinishedSpans();
    expect(root.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root.spanContext().traceFlags).toBe(TraceFlags.SAMPLED);
    expect(exportedRoot!.name).toBe('chat openai/gpt');
    expect(exportedRoot!.status).toEqual({ code: SpanStatusCode.OK });
    expect(exportedRoot!.parentSpanContext).toBeUndefined();
    expect(exportedChild!.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(exportedChild!.parentSpanContext).toMatchObject({ spanId: root.spanContext().spanId, isRemote: false });
    expect(exportedChild!.attributes).toEqual({ a: 2, list: ['x', 'y'] });
    expect(exportedChild!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'http_5xx' });
    const [seconds, nanos] = exportedRoot!.duration;
    expect(seconds).toBe(0);
    expect(nanos).toBeGreaterThanOrEqual(0);
    expect(exportedRoot!.endTime[0] * 1e9 + exportedRoot!.endTime[1]).toBeGreaterThanOrEqual(exportedChild!.endTime[0] * 1e9 + exportedChild!.endTime[1]);
  });

  it('ignores writes after the end, with the SDK warning, and exports a span once', () => {
    const { tracer, exporter } = recordedSpans();
    const span = tracer.startSpan('s');
    span.end();
    span.setAttribute('late', 1);
    span.end();
    expect(span.isRecording()).toBe(false);
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(exporter.getFinishedSpans()[0]!.attributes).toEqual({});
    expect(diagnostics.filter((message) => /ended Span/.test(message))).toHaveLength(2);
  });

  it("continues the client's remote trace and trace state", () => {
    const { tracer, exporter } = recordedSpans();
    const parent = clientParentContext({ traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`, tracestate: 'congo=t61rcWkgMzE' });
    const span = tracer.startSpan('chat', {}, parent);
    expect(span.spanContext()).toMatchObject({ traceId: CLIENT_TRACE, traceFlags: TraceFlags.SAMPLED });
    expect(span.spanContext().traceState?.serialize()).toBe('congo=t61rcWkgMzE');
    span.end();
    const [exported] = exporter.getFinishedSpans();
    expect(exported!.parentSpanContext).toMatchObject({ traceId: CLIENT_TRACE, spanId: CLIENT_SPAN, isRemote: true });
    expect(exported!.spanContext().traceState?.serialize()).toBe('congo=t61rcWkgMzE');
    // A malformed traceparent is no parent, and a malformed tracestate is dropped alone.
    expect(clientParentSpanContext({ traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}` })).toBeUndefined();
    const withBadState = clientParentSpanContext({ traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`, tracestate: 'bad key=1' });
    expect(withBadState).toMatchObject({ traceId: CLIENT_TRACE, spanId: CLIENT_SPAN });
    expect(withBadState?.traceState).toBeUndefined();
  });

  it('samples at the start: an unsampled span records nothing but keeps a valid context for upstream', () => {
    const { tracer, exporter } = recordedSpans(new AlwaysOffSampler());
    const span = tracer.startSpan('chat', { attributes: { a: 1 } });
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.spanContext().traceFlags).toBe(TraceFlags.NONE);
    span.setAttribute('b', 2);
    span.end();
    expect(exporter.getFinishedSpans()).toEqual([]);
    // Parent-based: the client's unsampled trace stays unsampled, and its children too.
    const parentBased = recordedSpans(new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(1) }));
    const unsampled = parentBased.tracer.startSpan('chat', {}, clientParentContext({ traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-00` }));
    const child = parentBased.tracer.startSpan('attempt', {}, trace.setSpan(ROOT_CONTEXT, unsampled));
    expect([unsampled.isRecording(), child.isRecording()]).toEqual([false, false]);
    expect(child.spanContext().traceId).toBe(CLIENT_TRACE);
  });

  it('starts a new trace under an invalid parent, and records events, exceptions and links', () => {
    const { tracer, exporter } = recordedSpans();
    const invalid = trace.setSpanContext(ROOT_CONTEXT, { traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 1 });
    const span = tracer.startSpan('s', { links: [{ context: { traceId: CLIENT_TRACE, spanId: CLIENT_SPAN, traceFlags: 1 } }] }, invalid);
    span.addEvent('retry', { attempt: 2 }).addEvent('timed', 1_000);
    span.recordException(new TypeError('boom'));
    span.end();
    const [exported] = exporter.getFinishedSpans();
    expect(exported!.spanContext().traceId).not.toBe('0'.repeat(32));
    expect(exported!.parentSpanContext).toBeUndefined();
    expect(exported!.events.map((event) => event.name)).toEqual(['retry', 'timed', 'exception']);
    expect(exported!.events[0]!.attributes).toEqual({ attempt: 2 });
    expect(exported!.events[2]!.attributes).toMatchObject({ 'exception.type': 'TypeError', 'exception.message': 'boom' });
    expect(exported!.links).toEqual([{ context: { traceId: CLIENT_TRACE, spanId: CLIENT_SPAN, traceFlags: 1 } }]);
  });
});

describe('span wire format', () => {
  it('carries spans to the export thread unchanged, each attribute key sent once', () => {
    const spans: FinishedSpan[] = [];
    const capture = new RecordingTracer(new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(1) }), (span) => spans.push(span));
    const encoder = new SpanEncoder();
    const decoder = new SpanDecoder();
    const first = capture.startSpan('a', { attributes: { k1: 'v', k2: 3 } });
    first.setStatus({ code: SpanStatusCode.ERROR, message: 'm' });
    first.end();
    encoder.add(spans[0]!);
    const batch1 = encoder.take();
    const second = capture.startSpan('b', { attributes: { k2: 4, k3: [true, false] } }, trace.setSpan(ROOT_CONTEXT, first));
    second.addEvent('e');
    second.end();
    encoder.add(spans[1]!);
    const batch2 = structuredClone(encoder.take());
    expect(batch1.newKeys).toEqual(['k1', 'k2']);
    expect(batch2.newKeys).toEqual(['k3']);
    const decoded = [...decoder.decode(structuredClone(batch1)), ...decoder.decode(batch2)];
    expect(decoded).toEqual(spans.map((span) => {
      const { traceId, spanId, traceFlags, traceState, parentSpanId, parentTraceFlags, parentIsRemote, startMs, endMs, statusCode, statusMessage, attributes, events, links, name, kind } = span;
      return { name, kind, traceId, spanId, traceFlags, traceState, parentSpanId, parentTraceFlags, parentIsRemote, startMs, endMs, statusCode, statusMessage, attributes: [...attributes], events, links };
    }));
    expect(encoder.spans).toBe(0);
  });
});

describe('samplerFromEnv', () => {
  const decide = (env: NodeJS.ProcessEnv, traceId = 'ffffffffffffffffffffffffffffffff') =>
    samplerFromEnv(env).shouldSample(ROOT_CONTEXT, traceId, 's', SpanKind.SERVER, {}, []).decision;

  it('builds the sampler each standard name means, parentbased_always_on by default', () => {
    expect(samplerFromEnv({}).toString()).toMatch(/ParentBased\{root=AlwaysOnSampler/);
    expect(decide({ OTEL_TRACES_SAMPLER: 'always_off' })).toBe(SamplingDecision.NOT_RECORD);
    expect(decide({ OTEL_TRACES_SAMPLER: 'always_on' })).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' })).toBe(SamplingDecision.NOT_RECORD);
    expect(decide({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' }, '00000000000000000000000000000001')).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }).toString()).toMatch(/ParentBased\{root=TraceIdRatioBased\{0.1\}/);
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }).toString()).toMatch(/ParentBased\{root=AlwaysOffSampler/);
    expect(diagnostics).toEqual([]);
  });

  it('reports a wrong name or ratio and falls back as the SDK does', () => {
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'sometimes' }).toString()).toMatch(/ParentBased\{root=AlwaysOnSampler/);
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }).toString()).toMatch(/TraceIdRatioBased\{1\}/);
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio' }).toString()).toMatch(/TraceIdRatioBased\{1\}/);
    expect(diagnostics).toHaveLength(3);
  });
});
