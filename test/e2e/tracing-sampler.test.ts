// The standard sampling variables apply to the gateway's own SDK (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG, read
// by the provider from the process environment): a ratio of 0 exports no span, while the upstream still receives a
// valid traceparent, flagged not sampled, and the request is served as usual.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { answerExport } from '../helpers/otlp-request.js';

const received: string[] = [];
const sink = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (req.url === '/v1/traces') received.push(Buffer.concat(chunks).toString('utf8'));
    answerExport(req, res);
  });
});
let upstream: MockUpstream;
const saved = { sampler: process.env.OTEL_TRACES_SAMPLER, arg: process.env.OTEL_TRACES_SAMPLER_ARG };

beforeAll(async () => {
  process.env.OTEL_TRACES_SAMPLER = 'traceidratio';
  process.env.OTEL_TRACES_SAMPLER_ARG = '0';
  upstream = await new MockUpstream().start();
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const [name, value] of [
    ['OTEL_TRACES_SAMPLER', saved.sampler],
    ['OTEL_TRACES_SAMPLER_ARG', saved.arg],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await upstream?.close();
  await new Promise((resolve) => sink.close(resolve));
});

it('samples by OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG: ratio 0 exports nothing', {
  timeout: 90_000,
}, async () => {
  const endpoint = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    },
  });
  let generationId: string | null = null;
  try {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({
      kind: 'json',
      body: {
        id: 'up-1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-test-2026',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      },
    });
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hello' }], stream: false }),
    });
    const body = await res.text();
    expect(res.status, body).toBe(200);
    generationId = res.headers.get('x-generation-id');
    // Not sampled: the trace context still goes upstream, with the sampled flag off.
    expect(upstream.last.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
  } finally {
    await gw.close();
  }
  expect(generationId).toBeTruthy();
  // The stop flushed the exporter: with every span unsampled, nothing was sent.
  expect(received.join('\n')).not.toContain('chat openai/gpt-test');
  expect(received.join('\n')).not.toContain(generationId!);
});
