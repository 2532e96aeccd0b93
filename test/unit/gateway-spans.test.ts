// The gateway's request and attempt spans on the SDK (gateway-tracer.ts, gateway-spans.ts): the GenAI names,
// attributes and statuses, the client's trace and trace state continued (W3C propagator), the traceparent that goes
// upstream, the sampling decision, and each span ended exactly once.
import { DiagLogLevel, SpanKind, SpanStatusCode, diag } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  type ReadableSpan,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordedSpans } from '../helpers/recorded-spans.js';

const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const clientHeaders = (flags = '01') => ({
  traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-${flags}`,
  tracestate: 'congo=t61rcWkgMzE',
});

const record = {
  model: 'openai/gpt-test',
  provider: 'openai',
  upstream_model: 'gpt-test-2026',
  id: 'gen-1',
  prompt_tokens: 12,
  completion_tokens: 5,
  status: 'success' as const,
  finish_reason: 'stop',
  error_code: null,
};

/** The SDK warns (and ignores the call) when a span is ended, or written to, after its end. */
const warnings: string[] = [];
beforeEach(() => {
  warnings.length = 0;
  const keep = (message: string) => void warnings.push(message);
  diag.setLogger(
    { error: keep, warn: keep, info: () => undefined, debug: () => undefined, verbose: () => undefined },
    DiagLogLevel.WARN,
  );
});
afterEach(() => diag.disable());

const parentId = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('gateway spans', () => {
  it("exports a served request and its attempt with the GenAI attributes, continuing the client's trace", () => {
    const { tracer, exporter } = recordedSpans();
    const request = tracer.startRequest(clientHeaders());
    const attempt = request.startAttempt('openai', 'gpt-test-2026');
    const upstreamHeaders = attempt.traceHeaders({ authorization: 'Bearer sk-provider' });
    Object.assign(attempt, {
      host: 'api.openai.test',
      port: 443,
      httpStatus: 200,
      upstreamId: 'chatcmpl-1',
      finishReason: 'stop',
      inputTokens: 12,
      outputTokens: 5,
    });
    attempt.end();
    attempt.end(); // once
    request.record = record;
    request.end(200);
    request.end(500); // once
    expect(warnings).toEqual([]);

    const [attemptSpan, requestSpan] = exporter.getFinishedSpans();
    expect(exporter.getFinishedSpans()).toHaveLength(2);
    expect(requestSpan).toMatchObject({
      name: 'chat openai/gpt-test',
      kind: SpanKind.SERVER,
      status: { code: SpanStatusCode.UNSET },
    });
    expect(requestSpan!.spanContext()).toMatchObject({ traceId: CLIENT_TRACE });
    expect(requestSpan!.spanContext().traceState?.serialize()).toBe('congo=t61rcWkgMzE');
    expect(requestSpan!.parentSpanContext).toMatchObject({ spanId: CLIENT_SPAN, isRemote: true });
    expect(requestSpan!.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'modelgate.provider': 'openai',
      'gen_ai.request.model': 'openai/gpt-test',
      'gen_ai.response.model': 'gpt-test-2026',
      'gen_ai.response.id': 'gen-1',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 5,
      'modelgate.generation.status': 'success',
      'gen_ai.response.finish_reasons': ['stop'],
      'http.response.status_code': 200,
    });
    expect(requestSpan!.instrumentationScope.name).toBe('modelgate');

    expect(attemptSpan).toMatchObject({
      name: 'chat gpt-test-2026',
      kind: SpanKind.CLIENT,
      status: { code: SpanStatusCode.UNSET },
    });
    expect(attemptSpan!.spanContext().traceId).toBe(CLIENT_TRACE);
    expect(parentId(attemptSpan!)).toBe(requestSpan!.spanContext().spanId);
    expect(attemptSpan!.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test-2026',
      'modelgate.provider': 'openai',
      'server.address': 'api.openai.test',
      'server.port': 443,
      'http.response.status_code': 200,
      'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 5,
      'modelgate.attempt.outcome': 'ok',
    });
    // The upstream continues the trace under the attempt span, with the client's trace state, and keeps its own headers.
    expect(upstreamHeaders).toEqual({
      authorization: 'Bearer sk-provider',
      traceparent: `00-${CLIENT_TRACE}-${attemptSpan!.spanContext().spanId}-01`,
      tracestate: 'congo=t61rcWkgMzE',
    });
  });

  it('types errors: a refusal by its HTTP status, a failed generation by its record, attempts by their outcome', () => {
    const { tracer, exporter } = recordedSpans();
    const refused = tracer.startRequest({});
    refused.end(402);
    const failed = tracer.startRequest({});
    const head = failed.startAttempt('anthropic', 'claude-x');
    Object.assign(head, { httpStatus: 503, failedAtHead: 'http_5xx' });
    head.end();
    const body = failed.startAttempt('mistral', 'mistral-y');
    Object.assign(body, { httpStatus: 200, bodyError: 'aborted' });
    body.end();
    failed.record = { ...record, status: 'error', error_code: 'upstream_error', finish_reason: null };
    failed.end(502);
    const [refusedSpan, headSpan, bodySpan, failedSpan] = exporter.getFinishedSpans();
    expect(refusedSpan).toMatchObject({
      name: 'chat',
      status: { code: SpanStatusCode.ERROR },
      parentSpanContext: undefined,
    });
    expect(refusedSpan!.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'http.response.status_code': 402,
      'error.type': '402',
    });
    expect(failedSpan!.status.code).toBe(SpanStatusCode.ERROR);
    expect(failedSpan!.attributes).toMatchObject({
      'error.type': 'upstream_error',
      'http.response.status_code': 502,
      'modelgate.generation.status': 'error',
    });
    expect(failedSpan!.attributes).not.toHaveProperty('gen_ai.response.finish_reasons');
    expect(headSpan!.status.code).toBe(SpanStatusCode.ERROR);
    expect(headSpan!.attributes).toMatchObject({
      'http.response.status_code': 503,
      'error.type': 'http_5xx',
      'modelgate.attempt.outcome': 'http_5xx',
      'gen_ai.provider.name': 'anthropic',
    });
    expect(bodySpan!.attributes).toMatchObject({
      'error.type': 'aborted',
      'modelgate.attempt.outcome': 'aborted',
      'gen_ai.provider.name': 'mistral_ai',
      'modelgate.provider': 'mistral',
    });
    expect(bodySpan!.attributes).not.toHaveProperty('gen_ai.usage.input_tokens');
  });

  it("starts a trace of its own for a malformed traceparent, without the client's trace state", () => {
    const { tracer, exporter } = recordedSpans();
    const request = tracer.startRequest({
      traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}`,
      tracestate: 'congo=t61rcWkgMzE',
    });
    const headers = request.startAttempt('openai', 'gpt-test').traceHeaders({});
    request.end(200);
    const [span] = exporter.getFinishedSpans();
    expect(span!.spanContext().traceId).not.toBe(CLIENT_TRACE);
    expect(span!.parentSpanContext).toBeUndefined();
    expect(headers.traceparent).toMatch(new RegExp(`^00-${span!.spanContext().traceId}-[0-9a-f]{16}-01$`));
    expect(headers.tracestate).toBeUndefined();
  });

  it('records nothing for an unsampled request, whose attempts still send a valid, unsampled traceparent', () => {
    const { tracer, exporter } = recordedSpans(new ParentBasedSampler({ root: new AlwaysOffSampler() }));
    const request = tracer.startRequest({});
    const attempt = request.startAttempt('openai', 'gpt-test');
    expect(attempt.traceHeaders({}).traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    attempt.end();
    request.record = record;
    request.end(200);
    expect(request.sampled).toBe(false);
    // A parent-based sampler follows the client's flag: not sampled there, not sampled here.
    const fromUnsampledClient = recordedSpans(new ParentBasedSampler({ root: new AlwaysOnSampler() }));
    expect(fromUnsampledClient.tracer.startRequest(clientHeaders('00')).sampled).toBe(false);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("spends one sampling decision on an unsampled request: its attempts start no span and send the request's context", () => {
    const decisions: string[] = [];
    const sampler = new ParentBasedSampler({ root: new AlwaysOnSampler() });
    const counting: Sampler = {
      shouldSample: (...args: Parameters<Sampler['shouldSample']>) => {
        decisions.push(args[2]);
        return sampler.shouldSample(...args);
      },
      toString: () => 'counting',
    };
    const { tracer, exporter } = recordedSpans(counting);
    // The client's trace is not sampled: the parent-based sampler follows it, for the request and any attempt.
    const request = tracer.startRequest(clientHeaders('00'));
    const first = request.startAttempt('openai', 'gpt-test');
    const failover = request.startAttempt('anthropic', 'claude-test');
    const expected = {
      traceparent: `00-${CLIENT_TRACE}-${request.span.spanContext().spanId}-00`,
      tracestate: 'congo=t61rcWkgMzE',
    };
    expect(first.traceHeaders({ authorization: 'Bearer a' })).toEqual({ authorization: 'Bearer a', ...expected });
    expect(failover.traceHeaders({ 'x-api-key': 'b' })).toEqual({ 'x-api-key': 'b', ...expected });
    first.end();
    failover.end();
    request.end(200);
    expect(decisions).toEqual(['chat']);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
