// With tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT, no SDK in this process), the client's W3C trace context goes
// upstream as it came, so the caller's trace continues at the provider: a valid traceparent (and its tracestate)
// unchanged, a malformed one dropped without failing the request, and no other client header ever.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activeTracer } from '../../src/observability/tracer.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const TRACESTATE = 'congo=t61rcWkgMzE, rojo=00f067aa0ba902b7';

let upstream: MockUpstream;
let gw: TestGateway;
let user: { key: string };

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-provider',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    },
  });
  const created = await gw.createUser();
  await gw.grant(created.userId, 1);
  user = created;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const chunk = {
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }],
};
const usage = {
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};
const completion = {
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: usage.usage,
};

async function chat(headers: Record<string, string>, stream: boolean): Promise<number> {
  upstream.reply(stream ? { kind: 'sse', chunks: openAiSse([chunk, usage]) } : { kind: 'json', body: completion });
  const res = await gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key: user.key,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream }),
  });
  if (stream) expect((await readSse(res)).done).toBe(true);
  else await res.text();
  return res.status;
}

describe('tracing off', () => {
  it('is really off in this process: no tracer, and nothing of the OpenTelemetry SDK loaded', async () => {
    expect(activeTracer()).toBeUndefined();
    expect(await chat({ traceparent: TRACEPARENT }, true)).toBe(200);
    // The SDK's packages are CommonJS: loaded, they would be in the require cache (only the API package may be).
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) =>
      /@opentelemetry[\\/](?!api[\\/])/.test(file),
    );
    expect(loaded).toEqual([]);
  });

  it.each([true, false])(
    'forwards traceparent and tracestate unchanged, and no other client header (stream: %s)',
    async (stream) => {
      const status = await chat(
        {
          traceparent: TRACEPARENT,
          tracestate: TRACESTATE,
          baggage: 'user.id=42',
          cookie: 'session=abc',
          'x-custom-header': 'private',
          'x-forwarded-for': '10.0.0.1',
        },
        stream,
      );
      expect(status).toBe(200);
      const sent = upstream.last.headers;
      expect(sent.traceparent).toBe(TRACEPARENT);
      expect(sent.tracestate).toBe(TRACESTATE);
      // The provider's key, never the client's; none of the client's other headers.
      expect(sent.authorization).toBe('Bearer sk-provider');
      expect(JSON.stringify(sent)).not.toContain(user.key);
      for (const name of ['baggage', 'cookie', 'x-custom-header', 'x-forwarded-for'])
        expect(sent[name]).toBeUndefined();
    },
  );

  it('forwards a later traceparent version as it came', async () => {
    const future = `cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-the-future-holds`;
    expect(await chat({ traceparent: future }, false)).toBe(200);
    expect(upstream.last.headers.traceparent).toBe(future);
  });

  it.each([
    ['not a traceparent'],
    ['00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7'],
    ['00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01'],
    ['00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    ['00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
    ['ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra'],
  ])('drops the malformed traceparent %j (and its tracestate), and serves the request', async (traceparent) => {
    expect(await chat({ traceparent, tracestate: TRACESTATE }, true)).toBe(200);
    expect(upstream.last.headers.traceparent).toBeUndefined();
    expect(upstream.last.headers.tracestate).toBeUndefined();
  });

  it('drops a malformed tracestate alone', async () => {
    expect(await chat({ traceparent: TRACEPARENT, tracestate: 'Upper=case,=x' }, false)).toBe(200);
    expect(upstream.last.headers.traceparent).toBe(TRACEPARENT);
    expect(upstream.last.headers.tracestate).toBeUndefined();
  });

  it('sends nothing when the client sent no traceparent', async () => {
    expect(await chat({ tracestate: TRACESTATE }, true)).toBe(200);
    expect(upstream.last.headers.traceparent).toBeUndefined();
    expect(upstream.last.headers.tracestate).toBeUndefined();
  });
});
