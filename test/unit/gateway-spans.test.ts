// The gateway's request and attempt spans are recorded as fields (gateway-tracer.ts), cross to the export thread in
// the wire format (span-wire.ts) and come out as the GenAI spans (gateway-spans.ts), with the sampling decision, the
// client's trace and trace state, and the traceparent that goes upstream.
import { SpanKind, SpanStatusCode, createTraceState } from '@opentelemetry/api';
import { AlwaysOffSampler, ParentBasedSampler, AlwaysOnSampler } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { GatewayTracer, type GatewaySpanSink } from '../../src/observability/gateway-tracer.js';
import type { FinishedSpan } from '../../src/observability/recording-tracer.js';
import { SpanDecoder, SpanEncoder } from '../../src/observability/span-wire.js';

const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

/** A tracer whose ended spans are encoded as they would be posted, and decoded as the export thread decodes them. */
function wireTracer(sampler = new ParentBasedSampler({ root: new AlwaysOnSampler() })) {
  const encoder = new SpanEncoder();
  const decoder = new SpanDecoder();
  const sink: GatewaySpanSink = { span: (span) => encoder.add(span), request: (r) => encoder.addRequest(r), attempt: (a) => encoder.addAttempt(a) };
  const exported = (): FinishedSpan[] => decoder.decode(structuredClone(encoder.take()));
  return { tracer: new GatewayTracer(sampler, sink), exported };
}

const attributesOf = (span: FinishedSpan) => {
  const attributes: Record<string, unknown> = {};
  for (let i = 0; i < span.attributes.length; i += 2) attributes[span.attributes[i] as string] = span.attributes[i + 1];
  return attributes;
};

const record = {
  model: 'openai/gpt-test', provider: 'openai', upstream_model: 'gpt-test-2026', id: 'gen-1', prompt_tokens: 12, completion_tokens: 5,
  status: 'success' as const, finish_reason: 'stop', error_code: null,
};

describe('gateway spans', () => {
  it('exports a served request and its attempt with the GenAI attributes, continuing the client\'s trace', () => {
    const { tracer, exported } = wireTracer();
    const request = tracer.startRequest({ traceId: CLIENT_TRACE, spanId: CLIENT_SPAN, traceFlags: 1, isRemote: true, traceState: createTraceState('congo=t61rcWkgMzE') });
    const attempt = request.startAttempt('openai', 'gpt-test-2026');
    expect(attempt.traceparent()).toBe(`00-${CLIENT_TRACE}-${attempt.spanId}-01`);
    Object.assign(attempt, { host: 'api.openai.test', port: 443, httpStatus: 200, upstreamId: 'chatcmpl-1', finishReason: 'stop', inputTokens: 12, outputTokens: 5 });
    attempt.end();
    tracer.startSpan('probe', { attributes: { k: 1 } }).end(); // an API span in the same batch
    request.record = { ...record, user_id: 'u', access_mode: 'credits', streamed: false, http_status: 200, error_message: null, latency_ms: 3 } as never;
    request.end(200);
    request.end(500); // once
    const [attemptSpan, probe, requestSpan] = exported();
    expect(probe).toMatchObject({ name: 'probe', attributes: ['k', 1] });
    expect(requestSpan).toMatchObject({
      name: 'chat openai/gpt-test', kind: SpanKind.SERVER, traceId: CLIENT_TRACE, parentSpanId: CLIENT_SPAN, parentIsRemote: true,
      traceState: 'congo=t61rcWkgMzE', statusCode: SpanStatusCode.UNSET, spanId: request.spanId,
    });
    expect(attributesOf(requestSpan!)).toEqual({
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'modelgate.provider': 'openai', 'gen_ai.request.model': 'openai/gpt-test',
      'gen_ai.response.model': 'gpt-test-2026', 'gen_ai.response.id': 'gen-1', 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 5,
      'modelgate.generation.status': 'success', 'gen_ai.response.finish_reasons': ['stop'], 'http.response.status_code': 200,
    });
    expect(attemptSpan).toMatchObject({
      name: 'chat gpt-test-2026', kind: SpanKind.CLIENT, traceId: CLIENT_TRACE, parentSpanId: request.spanId, parentIsRemote: false,
      traceState: 'congo=t61rcWkgMzE', statusCode: SpanStatusCode.UNSET,
    });
    expect(attributesOf(attemptSpan!)).toEqual({
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-test-2026', 'modelgate.provider': 'openai',
      'server.address': 'api.openai.test', 'server.port': 443, 'http.response.status_code': 200, 'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.response.finish_reasons': ['stop'], 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 5, 'modelgate.attempt.outcome': 'ok',
    });
    expect(requestSpan!.endMs).toBeGreaterThanOrEqual(requestSpan!.startMs);
  });

  it('types errors: a refusal by its HTTP status, a failed generation by its record, attempts by their outcome', () => {
    const { tracer, exported } = wireTracer();
    const refused = tracer.startRequest(undefined);
    refused.end(402);
    const failed = tracer.startRequest(undefined);
    const head = failed.startAttempt('anthropic', 'claude-x');
    Object.assign(head, { httpStatus: 503, failedAtHead: 'http_5xx' });
    head.end();
    const body = failed.startAttempt('openai', 'gpt-y');
    Object.assign(body, { httpStatus: 200, bodyError: 'aborted' });
    body.end();
    failed.record = { ...record, status: 'error', error_code: 'upstream_error', finish_reason: null } as never;
    failed.end(502);
    const [refusedSpan, headSpan, bodySpan, failedSpan] = exported();
    expect(refusedSpan).toMatchObject({ name: 'chat', statusCode: SpanStatusCode.ERROR, parentSpanId: undefined });
    expect(attributesOf(refusedSpan!)).toEqual({ 'gen_ai.operation.name': 'chat', 'http.response.status_code': 402, 'error.type': '402' });
    expect(failedSpan!.statusCode).toBe(SpanStatusCode.ERROR);
    expect(attributesOf(failedSpan!)).toMatchObject({ 'error.type': 'upstream_error', 'http.response.status_code': 502, 'modelgate.generation.status': 'error' });
    expect(attributesOf(failedSpan!)).not.toHaveProperty('gen_ai.response.finish_reasons');
    expect(headSpan!.statusCode).toBe(SpanStatusCode.ERROR);
    expect(attributesOf(headSpan!)).toMatchObject({ 'http.response.status_code': 503, 'error.type': 'http_5xx', 'modelgate.attempt.outcome': 'http_5xx', 'gen_ai.provider.name': 'anthropic' });
    expect(attributesOf(bodySpan!)).toMatchObject({ 'error.type': 'aborted', 'modelgate.attempt.outcome': 'aborted' });
    expect(attributesOf(bodySpan!)).not.toHaveProperty('gen_ai.usage.input_tokens');
  });

  it('records nothing for an unsampled request, whose attempts still send a valid, unsampled traceparent', () => {
    const { tracer, exported } = wireTracer(new ParentBasedSampler({ root: new AlwaysOffSampler() }));
    const request = tracer.startRequest(undefined);
    const attempt = request.startAttempt('openai', 'gpt-test');
    expect(attempt.traceparent()).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    attempt.end();
    request.end(200);
    const fromUnsampledClient = wireTracer().tracer.startRequest({ traceId: CLIENT_TRACE, spanId: CLIENT_SPAN, traceFlags: 0, isRemote: true });
    expect(fromUnsampledClient.sampled).toBe(false);
    expect(exported()).toEqual([]);
  });
});
