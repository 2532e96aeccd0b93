// The upstream-attempt CLIENT span covers the whole upstream exchange (in-memory exporter): for a stream it ends when
// the stream ends, fails or the client leaves, with the attempt's outcome and what the upstream reported; failover
// gives one span per attempt; the request span ends exactly once on every path (no "ended Span" warning ever).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DiagLogLevel, SpanKind, SpanStatusCode, diag } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setActiveTracer } from '../../src/observability/tracer.js';
import { recordedSpans } from '../helpers/recorded-spans.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';

// The gateway's own tracer, its spans as they would be exported.
const { tracer, exporter } = recordedSpans();
/** The SDK warns (and ignores the call) when a span is ended, or written to, after its end. */
const endedSpanWarnings: string[] = [];
diag.setLogger(
  {
    error: () => undefined,
    info: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
    warn: (message: string) => void (/ended Span/i.test(message) && endedSpanWarnings.push(message)),
  },
  DiagLogLevel.WARN,
);

/** A vendor API answering each request with the next scripted handler, which may hold the response open. */
class ScriptedUpstream {
  readonly server = http.createServer((req, res) => void this.handle(req, res));
  private handlers: ((res: http.ServerResponse) => Promise<void> | void)[] = [];
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  next(handler: (res: http.ServerResponse) => Promise<void> | void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    for await (const _ of req) {
      // the request body is not needed
    }
    const handler = this.handlers.shift();
    if (!handler)
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"nothing scripted"}}');
    else await handler(res);
  }
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'up-stream-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'x',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk = {
  id: 'up-stream-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'x',
  choices: [],
  usage: { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 },
};
const sse = (...chunks: unknown[]) => openAiSse(chunks, false).join('');
const openSse = (res: http.ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });

let beta: ScriptedUpstream;
let gamma: MockUpstream;
let alpha: MockUpstream;
let gw: TestGateway;
let user: { key: string };

beforeAll(async () => {
  setActiveTracer(tracer);
  beta = await new ScriptedUpstream().start();
  gamma = await new MockUpstream().start();
  alpha = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/routing-catalog.json',
      ALPHA_API_KEY: 'sk-a',
      ALPHA_BASE_URL: `${alpha.url}/v1`,
      BETA_API_KEY: 'sk-b',
      BETA_BASE_URL: `${beta.url}/v1`,
      GAMMA_API_KEY: 'sk-g',
      GAMMA_BASE_URL: `${gamma.url}/v1`,
      MODELGATE_ROUTE_MAX_ATTEMPTS: '3',
    },
  });
  const created = await gw.createUser();
  await gw.grant(created.userId, 10);
  user = created;
});
afterAll(async () => {
  setActiveTracer(undefined);
  await gw?.close();
  await beta?.close();
  await gamma?.close();
  await alpha?.close();
});
beforeEach(() => {
  exporter.reset();
  gamma.reset();
  alpha.reset();
  endedSpanWarnings.length = 0;
});
afterEach(() => {
  expect(endedSpanWarnings).toEqual([]);
});

const chat = (body: Record<string, unknown>, signal?: AbortSignal) =>
  gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key: user.key,
    headers: { 'content-type': 'application/json' },
    signal,
    body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], stream: true, ...body }),
  });

const spans = () => exporter.getFinishedSpans();
const serverSpans = () => spans().filter((span) => span.kind === SpanKind.SERVER);
const clientSpans = () => spans().filter((span) => span.kind === SpanKind.CLIENT);
const parentId = (span: ReadableSpan) => span.parentSpanContext?.spanId;

async function waitFor(ready: () => boolean): Promise<void> {
  const until = Date.now() + 10_000;
  while (!ready()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Reads the response body until `text` shows up; returns the reader to go on with. */
async function readUntil(res: Response, text: string): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const reader = res.body!.getReader();
  let seen = '';
  while (!seen.includes(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before ${text}`);
    seen += new TextDecoder().decode(value);
  }
  return reader;
}

describe('a streaming attempt span', () => {
  it("is open while the upstream streams and ends after its last chunk, with the stream's usage and id", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let attemptSpansWhenLastChunkSent: number | undefined;
    beta.next(async (res) => {
      openSse(res);
      res.write(sse(chunk({ role: 'assistant', content: 'first-part' })));
      await released;
      res.end(`${sse(chunk({ content: '!' }), chunk({}, 'stop'), usageChunk)}data: [DONE]\n\n`);
      // Same event loop as the gateway: it cannot have read these bytes yet, so nothing it did after them has run.
      attemptSpansWhenLastChunkSent = clientSpans().length;
    });
    const res = await chat({ model: 'beta/solo' });
    const reader = await readUntil(res, 'first-part');
    // Head and first chunk are through: the exchange is not over, nor is its span.
    expect(clientSpans()).toHaveLength(0);
    release();
    while (!(await reader.read()).done) {
      // drain
    }
    await gw.settled();

    expect(attemptSpansWhenLastChunkSent).toBe(0);
    const [attempt] = clientSpans();
    const [request] = serverSpans();
    expect(clientSpans()).toHaveLength(1);
    expect(serverSpans()).toHaveLength(1);
    expect(parentId(attempt)).toBe(request.spanContext().spanId);
    expect(attempt.name).toBe('chat beta-solo');
    expect(attempt.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(attempt.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'beta',
      'gen_ai.request.model': 'beta-solo',
      'gen_ai.response.id': 'up-stream-1',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.usage.output_tokens': 4,
      'http.response.status_code': 200,
      'modelgate.attempt.outcome': 'ok',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(beta.url).port),
    });
    expect(attempt.attributes['error.type']).toBeUndefined();
    // The request span carries the stream's usage too.
    expect(request.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.usage.output_tokens': 4,
      'gen_ai.response.finish_reasons': ['stop'],
    });
  });

  it('ends once, as aborted, with the request span, when the client leaves mid-stream', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    beta.next(async (res) => {
      openSse(res);
      res.write(sse(chunk({ role: 'assistant', content: 'never-finished' })));
      // Held open until the gateway drops the exchange (the client left).
      res.once('close', upstreamClosed);
      await closed;
    });
    const controller = new AbortController();
    const res = await chat({ model: 'beta/solo' }, controller.signal);
    await readUntil(res, 'never-finished');
    controller.abort();
    await closed;
    await waitFor(() => serverSpans().length > 0);
    await gw.settled();

    expect(serverSpans()).toHaveLength(1);
    expect(clientSpans()).toHaveLength(1);
    const [attempt] = clientSpans();
    const [request] = serverSpans();
    expect(parentId(attempt)).toBe(request.spanContext().spanId);
    expect(attempt.attributes).toMatchObject({ 'error.type': 'aborted', 'modelgate.attempt.outcome': 'aborted' });
    expect(attempt.status.code).toBe(SpanStatusCode.ERROR);
    expect(request.name).toBe('chat beta/solo');
    expect(request.attributes).toMatchObject({
      'error.type': 'client_disconnected',
      'modelgate.generation.status': 'aborted',
    });
    expect(request.attributes['gen_ai.usage.input_tokens']).toEqual(expect.any(Number));
    expect(request.attributes['gen_ai.usage.output_tokens']).toEqual(expect.any(Number));
  });

  it('ends once, as aborted, with the request span, when the client leaves before the first byte', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    let asked!: () => void;
    const upstreamAsked = new Promise<void>((resolve) => (asked = resolve));
    beta.next(async (res) => {
      // Silent: no head, no byte, until the gateway drops the exchange.
      res.once('close', upstreamClosed);
      asked();
      await closed;
    });
    const controller = new AbortController();
    const answer = chat({ model: 'beta/solo' }, controller.signal).catch((err: unknown) => err);
    await upstreamAsked;
    controller.abort();
    expect(await answer).toBeInstanceOf(Error);
    await closed;
    await waitFor(() => serverSpans().length > 0);
    await gw.settled();

    expect(serverSpans()).toHaveLength(1);
    expect(clientSpans()).toHaveLength(1);
    const [attempt] = clientSpans();
    expect(parentId(attempt)).toBe(serverSpans()[0].spanContext().spanId);
    expect(attempt.attributes).toMatchObject({ 'error.type': 'aborted', 'modelgate.attempt.outcome': 'aborted' });
    expect(serverSpans()[0].attributes['error.type']).toBe('client_disconnected');
  });

  it("ends with the stream's error code when the upstream reports an error mid-stream", async () => {
    beta.next((res) => {
      openSse(res);
      res.end(
        `${sse(chunk({ role: 'assistant', content: 'partial' }), { error: { message: 'overloaded', type: 'server_error' } })}`,
      );
    });
    const read = await readSse(await chat({ model: 'beta/solo' }));
    expect(read.chunks.at(-1).choices[0]).toMatchObject({ finish_reason: 'error', error: { code: 'server_error' } });
    await gw.settled();
    const [attempt] = clientSpans();
    expect(clientSpans()).toHaveLength(1);
    expect(attempt.attributes).toMatchObject({
      'error.type': 'server_error',
      'modelgate.attempt.outcome': 'server_error',
    });
    expect(attempt.status.code).toBe(SpanStatusCode.ERROR);
    expect(serverSpans()).toHaveLength(1);
    expect(serverSpans()[0].attributes['error.type']).toBe('server_error');
  });
});

describe('failover', () => {
  const okStream = openAiSse([chunk({ role: 'assistant', content: 'from gamma' }), chunk({}, 'stop'), usageChunk]);

  it.each([
    [
      'an error status',
      (res: http.ServerResponse) =>
        void res
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"error":{"message":"boom","type":"server_error"}}'),
      { 'error.type': 'http_5xx', 'http.response.status_code': 500 },
    ],
    [
      'a stream that breaks before its first event',
      (res: http.ServerResponse) => {
        openSse(res);
        res.flushHeaders();
        setImmediate(() => res.destroy());
      },
      { 'error.type': 'failed', 'http.response.status_code': 200 },
    ],
  ])('after %s gives two attempt spans with their outcomes under one request span', async (_name, failure, failed) => {
    beta.next(failure);
    gamma.reply({ kind: 'sse', chunks: okStream });
    const read = await readSse(await chat({ model: 'alpha/chat' }));
    expect(read.done).toBe(true);
    await gw.settled();

    expect(serverSpans()).toHaveLength(1);
    const [request] = serverSpans();
    expect(request.attributes).toMatchObject({ 'gen_ai.provider.name': 'gamma', 'http.response.status_code': 200 });
    expect(request.attributes['error.type']).toBeUndefined();
    const attempts = clientSpans();
    expect(attempts.map((span) => span.name).sort()).toEqual(['chat beta-chat', 'chat gamma-chat']);
    for (const attempt of attempts) expect(parentId(attempt)).toBe(request.spanContext().spanId);
    const first = attempts.find((span) => span.name === 'chat beta-chat')!;
    const second = attempts.find((span) => span.name === 'chat gamma-chat')!;
    expect(first.attributes).toMatchObject({ ...failed, 'modelgate.attempt.outcome': failed['error.type'] });
    expect(first.status.code).toBe(SpanStatusCode.ERROR);
    expect(second.attributes).toMatchObject({
      'modelgate.attempt.outcome': 'ok',
      'gen_ai.usage.output_tokens': 4,
      'gen_ai.response.id': 'up-stream-1',
    });
    expect(second.attributes['error.type']).toBeUndefined();
  });

  it("JSON: the serving attempt span carries the upstream's id, finish reason and usage", async () => {
    beta.next(
      (res) =>
        void res
          .writeHead(429, { 'content-type': 'application/json' })
          .end('{"error":{"message":"slow down","type":"rate_limit"}}'),
    );
    gamma.reply({
      kind: 'json',
      body: {
        id: 'up-json-1',
        object: 'chat.completion',
        created: 1,
        model: 'x',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 },
      },
    });
    expect((await chat({ model: 'alpha/chat', stream: false })).status).toBe(200);
    await gw.settled();
    const first = clientSpans().find((span) => span.name === 'chat beta-chat')!;
    const second = clientSpans().find((span) => span.name === 'chat gamma-chat')!;
    expect(first.attributes).toMatchObject({ 'error.type': 'http_429', 'http.response.status_code': 429 });
    expect(second.attributes).toMatchObject({
      'modelgate.attempt.outcome': 'ok',
      'gen_ai.response.id': 'up-json-1',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 11,
      'gen_ai.usage.output_tokens': 2,
    });
    expect(serverSpans()).toHaveLength(1);
  });

  it('JSON: a body that does not parse ends its attempt span as failed', async () => {
    beta.next((res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": "cut sh'));
    expect((await chat({ model: 'beta/solo', stream: false })).status).toBe(502);
    await gw.settled();
    expect(clientSpans()).toHaveLength(1);
    expect(clientSpans()[0].attributes).toMatchObject({
      'http.response.status_code': 200,
      'error.type': 'failed',
      'modelgate.attempt.outcome': 'failed',
    });
    expect(serverSpans()).toHaveLength(1);
  });
});
