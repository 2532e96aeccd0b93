// OpenTelemetry spans (in-memory exporter): one SERVER span per request with the GenAI semantic conventions, a
// CLIENT span per upstream attempt, the client's W3C trace continued and passed upstream, no prompt or completion
// text on any span; with tracing off, nothing is created and the client's own traceparent goes upstream as it came.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setActiveTracer } from '../../src/observability/tracer.js';
import { recordedSpans } from '../helpers/recorded-spans.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';

// The gateway's own tracer, its spans as they would be exported.
const { tracer, exporter } = recordedSpans();

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';
const PROMPT = 'SECRET-PROMPT-TEXT-q1w2e3';
const COMPLETION = 'SECRET-COMPLETION-TEXT-z9x8';

const chunk = (content: string) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});
const finish = {
  id: 'chatcmpl-up-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
};
const usage = {
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
};

let upstream: MockUpstream;
let gw: TestGateway;

beforeAll(async () => {
  setActiveTracer(tracer);
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    },
  });
});
afterAll(async () => {
  setActiveTracer(undefined);
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.reset();
  exporter.reset();
});

const chat = (key: string | undefined, headers: Record<string, string> = {}, body: Record<string, unknown> = {}) =>
  gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: PROMPT }],
      stream: true,
      ...body,
    }),
  });

const spans = () => exporter.getFinishedSpans();
const serverSpan = () => spans().find((span) => span.kind === SpanKind.SERVER)!;
const clientSpans = () => spans().filter((span) => span.kind === SpanKind.CLIENT);
const parentId = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('tracing', () => {
  it('continues the client trace with a GenAI request span and an attempt span whose id goes upstream', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({ kind: 'sse', chunks: openAiSse([chunk(COMPLETION), finish, usage]) });
    const res = await chat(user.key, {
      traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`,
      tracestate: 'congo=t61rcWkgMzE',
      baggage: 'user.id=alice',
    });
    const sse = await readSse(res);
    expect(sse.done).toBe(true);

    const request = serverSpan();
    expect(request.name).toBe('chat openai/gpt-test');
    expect(request.spanContext().traceId).toBe(TRACE_ID);
    expect(parentId(request)).toBe(CLIENT_SPAN_ID);
    expect(request.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'openai/gpt-test',
      'gen_ai.response.model': 'gpt-test-2026',
      'gen_ai.response.id': res.headers.get('x-generation-id'),
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 7,
      'http.response.status_code': 200,
    });
    expect(request.attributes['error.type']).toBeUndefined();

    const [attempt] = clientSpans();
    expect(clientSpans()).toHaveLength(1);
    expect(attempt.name).toBe('chat gpt-test-2026');
    expect(attempt.spanContext().traceId).toBe(TRACE_ID);
    expect(parentId(attempt)).toBe(request.spanContext().spanId);
    expect(attempt.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test-2026',
      'http.response.status_code': 200,
    });
    // The upstream continues the same trace, under the attempt span.
    expect(upstream.last.headers.traceparent).toBe(`00-${TRACE_ID}-${attempt.spanContext().spanId}-01`);
    expect(upstream.last.headers.tracestate).toBe('congo=t61rcWkgMzE');
    // Only the two trace-context headers leave: never the client's baggage.
    expect(upstream.last.headers.baggage).toBeUndefined();

    // No prompt or completion text anywhere on a span.
    const everything = JSON.stringify(
      spans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events })),
    );
    expect(everything).not.toContain(PROMPT);
    expect(everything).not.toContain(COMPLETION);
  });

  it("traces the Gemini door's generations too: a request span with its attempt span, no prompt text", async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({ kind: 'sse', chunks: openAiSse([chunk(COMPLETION), finish, usage]) });
    const res = await gw.fetch('/api/v1/gemini/v1beta/models/openai%2Fgpt-test:streamGenerateContent?alt=sse', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-goog-api-key': user.key,
        traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`,
      },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    await gw.settled();
    const server = serverSpan();
    expect(server.spanContext().traceId).toBe(TRACE_ID);
    expect(clientSpans().map(parentId)).toEqual([server.spanContext().spanId]);
    expect(JSON.stringify(spans().map((span) => span.attributes))).not.toContain(PROMPT);
  });

  it('marks upstream failures on both spans with error.type', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({ kind: 'json', status: 500, body: { error: { message: 'boom', type: 'server_error' } } });
    expect((await chat(user.key, {}, { stream: false })).status).toBe(502);
    await gw.settled();
    const request = serverSpan();
    expect(request.status.code).toBe(SpanStatusCode.ERROR);
    expect(request.attributes['error.type']).toEqual(expect.any(String));
    expect(request.attributes['error.type']).not.toBe('502');
    const [attempt] = clientSpans();
    expect(attempt.attributes).toMatchObject({ 'error.type': 'http_5xx', 'http.response.status_code': 500 });
    expect(attempt.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('records a refusal before any upstream call with its HTTP status as error.type', async () => {
    expect((await chat('mg-v1-not-a-real-key')).status).toBe(401);
    const request = serverSpan();
    expect(request.name).toBe('chat');
    expect(request.attributes).toMatchObject({ 'error.type': '401', 'http.response.status_code': 401 });
    expect(clientSpans()).toHaveLength(0);
  });

  it('starts a new trace for a malformed traceparent, and sends the attempt span upstream', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({ kind: 'sse', chunks: openAiSse([chunk('x'), finish, usage]) });
    const res = await chat(user.key, {
      traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}`,
      tracestate: 'congo=t61rcWkgMzE',
    });
    expect((await readSse(res)).done).toBe(true);
    await gw.settled();
    const request = serverSpan();
    expect(request.spanContext().traceId).not.toBe(TRACE_ID);
    expect(parentId(request)).toBeUndefined();
    const [attempt] = clientSpans();
    expect(upstream.last.headers.traceparent).toBe(
      `00-${request.spanContext().traceId}-${attempt.spanContext().spanId}-01`,
    );
    expect(upstream.last.headers.tracestate).toBeUndefined();
  });

  it("with tracing off creates no span and passes the client's traceparent upstream unchanged", async () => {
    setActiveTracer(undefined);
    const off = await startTestGateway({
      env: {
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: `${upstream.url}/v1`,
      },
    });
    try {
      const user = await off.createUser();
      await off.grant(user.userId, 1);
      upstream.reply({ kind: 'sse', chunks: openAiSse([chunk('x'), usage]) });
      const res = await off.fetch('/api/v1/chat/completions', {
        method: 'POST',
        key: user.key,
        headers: { 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01` },
        body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: true }),
      });
      await res.text();
      expect(spans()).toHaveLength(0);
      // The caller's trace continues at the provider (see trace-forwarding.test.ts).
      expect(upstream.last.headers.traceparent).toBe(`00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`);
    } finally {
      await off.close();
      setActiveTracer(tracer);
    }
  });
});
