// With OTEL_EXPORTER_OTLP_ENDPOINT set, the gateway loads the OpenTelemetry SDK itself and exports its spans over
// OTLP/HTTP (here to a local sink); a graceful stop flushes what is still batched. It installs no active-context
// manager (the request's context is passed explicitly), and the client's trace still continues upstream.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROOT_CONTEXT, context, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { activeTracer } from '../../src/observability/tracer.js';
import { startTestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';

const received: { path: string; body: string }[] = [];
const sink = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
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

it('exports the request and attempt spans over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set', { timeout: 90_000 }, async () => {
  expect(activeTracer()).toBeUndefined();
  const endpoint = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json', OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${upstream.url}/v1`,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    },
  });
  try {
    expect(activeTracer()).toBeDefined();
    // No AsyncLocalStorage context manager: the API's no-op manager ignores the context given to context.with.
    const probe = activeTracer()!.startSpan('probe');
    expect(context.with(trace.setSpan(ROOT_CONTEXT, probe), () => trace.getActiveSpan())).toBeUndefined();
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    const usage = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } };
    upstream.reply({ kind: 'sse', chunks: openAiSse([{ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] }, usage]) });
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST', key: user.key, headers: { 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01` },
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
  const exported = received.filter((r) => r.path === '/v1/traces').map((r) => r.body).join('\n');
  expect(exported).toContain('chat openai/gpt-test');
  expect(exported).toContain('chat gpt-test-2026');
  expect(exported).toContain('gen_ai.usage.output_tokens');
  expect(exported).toContain('"modelgate"');
  expect(exported).toContain(TRACE_ID);
});
