// With OTEL_EXPORTER_OTLP_ENDPOINT set, the gateway loads the OpenTelemetry SDK itself and exports its spans through
// the official OTLP/HTTP exporters (here to a local sink acting as the collector), in protobuf unless
// OTEL_EXPORTER_OTLP_PROTOCOL asks for http/json; a graceful stop flushes what is still batched. It installs no
// active-context manager (the request's context is passed explicitly), and the client's trace still continues upstream.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROOT_CONTEXT, context, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { activeTracer } from '../../src/observability/tracer.js';
import { startTestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { answerExport, exportedSpans } from '../helpers/otlp-request.js';

const received: { path: string; contentType?: string; body: Buffer }[] = [];
const sink = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks) });
    answerExport(req, res);
  });
});
let upstream: MockUpstream;
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN_ID = 'b7ad6b7169203331';

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await upstream?.close();
  await new Promise((resolve) => sink.close(resolve));
});

async function servedAndExported(protocol?: string) {
  received.length = 0;
  expect(activeTracer()).toBeUndefined();
  const endpoint = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      ...(protocol ? { OTEL_EXPORTER_OTLP_PROTOCOL: protocol } : {}),
    },
  });
  try {
    expect(activeTracer()).toBeDefined();
    // No AsyncLocalStorage context manager: the API's no-op manager ignores the context given to context.with.
    const probe = activeTracer()!.tracer.startSpan('probe');
    expect(context.with(trace.setSpan(ROOT_CONTEXT, probe), () => trace.getActiveSpan())).toBeUndefined();
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    const usage = {
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    };
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        {
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }],
        },
        usage,
      ]),
    });
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01` },
      body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hello' }], stream: true }),
    });
    await res.text();
    // The client's trace continues to the provider, the attempt span (not the client's) as the parent.
    expect(upstream.last.headers.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    expect(upstream.last.headers.traceparent).not.toContain(CLIENT_SPAN_ID);
  } finally {
    await gw.close();
  }
  // The stop flushed the batch and turned tracing off again.
  expect(activeTracer()).toBeUndefined();
  const exports = received.filter((r) => r.path === '/v1/traces');
  expect(exports.length).toBeGreaterThan(0);
  return { exports, spans: exports.flatMap((r) => exportedSpans(r.body, r.contentType)) };
}

function expectRequestAndAttempt(spans: Awaited<ReturnType<typeof servedAndExported>>['spans']) {
  const request = spans.find((span) => span.name === 'chat openai/gpt-test')!;
  const attempt = spans.find((span) => span.name === 'chat gpt-test-2026')!;
  expect(request).toMatchObject({ traceId: TRACE_ID, parentSpanId: CLIENT_SPAN_ID, scope: 'modelgate' });
  expect(request.resource['service.name']).toBe('modelgate');
  expect(request.attributes).toMatchObject({
    'gen_ai.operation.name': 'chat',
    'gen_ai.usage.input_tokens': 3,
    'gen_ai.usage.output_tokens': 2,
  });
  expect(attempt).toMatchObject({ traceId: TRACE_ID, parentSpanId: request.spanId });
  expect(attempt.attributes).toMatchObject({ 'gen_ai.provider.name': 'openai', 'http.response.status_code': 200 });
}

it('exports the request and attempt spans over OTLP/HTTP in protobuf when OTEL_EXPORTER_OTLP_ENDPOINT is set', {
  timeout: 90_000,
}, async () => {
  const { exports, spans } = await servedAndExported();
  expect(exports.every((r) => r.contentType === 'application/x-protobuf')).toBe(true);
  expectRequestAndAttempt(spans);
});

it('exports in JSON when OTEL_EXPORTER_OTLP_PROTOCOL is http/json', { timeout: 90_000 }, async () => {
  const { exports, spans } = await servedAndExported('http/json');
  expect(exports.every((r) => r.contentType === 'application/json')).toBe(true);
  expectRequestAndAttempt(spans);
});
