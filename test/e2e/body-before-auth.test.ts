// Resources before authentication (issue 35 §3): a request without a valid credential is answered 401 from its
// headers, its body unread, and its connection closes; bodies are capped per door (413 in the door's envelope, the
// connection closed too); the server's client timeouts are finite, bound receiving the request only, and a client
// that sends its headers too slowly gets 408.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { sendRaw, type RawResponse } from '../helpers/raw-http.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { KEY_SETTINGS_BODY_LIMIT_BYTES } from '../../src/http/body-limits.js';
import { clientTimeouts } from '../../src/http/client-timeouts.js';
import { loadConfig } from '../../src/config.js';

const TEN_MB = 10 * 1024 * 1024;
let gw: TestGateway;
let upstream: MockUpstream;
let user: { key: string; userId: string };

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_BODY_LIMIT_BYTES: String(2 * 1024 * 1024),
      // Short client deadlines, so that the timeout tests below take seconds.
      MODELGATE_HEADERS_TIMEOUT_SECONDS: '1',
      MODELGATE_REQUEST_TIMEOUT_SECONDS: '1',
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 1);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

/** Sends `head` and the first bytes of a body, then keeps the connection open without sending more. */
async function stalledUpload(
  head: string,
  firstBytes = '{"model":"openai/gpt-5.4-mini","mess',
): Promise<{ res: RawResponse; ms: number }> {
  const started = performance.now();
  const res = await sendRaw(gw.url, `${head}\r\n${firstBytes}`);
  return { res, ms: performance.now() - started };
}

const post = (path: string, headers: string[], length: number) =>
  [
    `POST ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `Content-Length: ${length}`,
    ...headers,
    '',
  ].join('\r\n');

describe('authentication before the body', () => {
  it('no credential, 10 MB announced, a few bytes sent: 401 at once, Connection: close, and the connection ends', async () => {
    const { res, ms } = await stalledUpload(post('/api/v1/chat/completions', [], TEN_MB));
    expect(res.status).toBe(401);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body).error).toMatchObject({ code: 401 });
    // sendRaw resolves when the connection ends: promptly, not after the body (never sent) or a timeout.
    expect(ms).toBeLessThan(3_000);
  });

  it("an unknown key on /messages: 401 in Anthropic's shape, the same way", async () => {
    const { res, ms } = await stalledUpload(
      post('/api/v1/messages', ['x-api-key: mg-v1-not-a-real-key-000000000000'], TEN_MB),
    );
    expect(res.status).toBe(401);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(ms).toBeLessThan(3_000);
  });

  it('an unknown route with an announced body: 404 at once, closing the connection', async () => {
    const { res, ms } = await stalledUpload(post('/api/v1/nothing-here', [], TEN_MB));
    expect(res.status).toBe(404);
    expect(res.headers.connection).toBe('close');
    expect(ms).toBeLessThan(3_000);
  });

  it('Expect: 100-continue: no go-ahead without a credential; with one, 100 Continue and then the answer', async () => {
    const refused = await timed(() =>
      sendRaw(gw.url, `${post('/api/v1/chat/completions', ['Expect: 100-continue'], TEN_MB)}\r\n`),
    );
    expect(refused.res.raw).toMatch(/^HTTP\/1\.1 401 /);
    expect(refused.res.raw).not.toContain('100 Continue');
    expect(refused.ms).toBeLessThan(3_000);

    const body = JSON.stringify({ model: 'nobody/none', messages: [{ role: 'user', content: 'hi' }] });
    const head = post(
      '/api/v1/chat/completions',
      ['Expect: 100-continue', `Authorization: Bearer ${user.key}`, 'Connection: close'],
      Buffer.byteLength(body),
    );
    const accepted = await sendRaw(
      gw.url,
      `${head}\r\n`,
      () => new Promise((resolve) => setTimeout(resolve, 200)),
      body,
    );
    expect(accepted.raw).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 404 /);
  });

  it('keeps the order route → 401 → 400: malformed JSON without a credential is 401, with one 400', async () => {
    const bad = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":' };
    expect((await gw.fetch('/api/v1/chat/completions', bad)).status).toBe(401);
    expect((await gw.fetch('/api/v1/chat/completions', { ...bad, key: user.key })).status).toBe(400);
    expect((await gw.fetch('/api/v1/nope', { ...bad, key: user.key })).status).toBe(404);
  });
});

describe('body caps per door', () => {
  it('a generation body announced over MODELGATE_BODY_LIMIT_BYTES: 413 before it is read, connection closed', async () => {
    const { res, ms } = await stalledUpload(
      post('/api/v1/chat/completions', [`Authorization: Bearer ${user.key}`], TEN_MB),
    );
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body).error).toMatchObject({ code: 413, metadata: { limit_bytes: 2 * 1024 * 1024 } });
    expect(ms).toBeLessThan(3_000);
  });

  it("on /messages the 413 is Anthropic's request_too_large", async () => {
    const { res } = await stalledUpload(post('/api/v1/messages', [`x-api-key: ${user.key}`], TEN_MB));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({
      type: 'error',
      error: { type: 'request_too_large', message: expect.stringContaining(String(2 * 1024 * 1024)) },
    });
  });

  it('a chunked body that grows over the cap: 413 once it passes it', async () => {
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    const head = [
      'POST /api/v1/chat/completions HTTP/1.1',
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      'Transfer-Encoding: chunked',
      `Authorization: Bearer ${user.key}`,
      '',
      '',
    ].join('\r\n');
    const res = await sendRaw(
      gw.url,
      head + chunk('x'.repeat(1024 * 1024)) + chunk('x'.repeat(1024 * 1024)) + chunk('x'.repeat(1024)),
    );
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
  });

  it('key management takes bodies up to 256 KiB; a larger one is 413 there while generation doors take it', async () => {
    const big = JSON.stringify({ name: 'n'.repeat(KEY_SETTINGS_BODY_LIMIT_BYTES) });
    const refused = await gw.fetch('/api/v1/api-keys', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as any).error.metadata.limit_bytes).toBe(KEY_SETTINGS_BODY_LIMIT_BYTES);
    // The same size on a generation door is read and judged on its merits (here: no such model).
    const chat = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'nobody/none',
        messages: [{ role: 'user', content: 'n'.repeat(KEY_SETTINGS_BODY_LIMIT_BYTES) }],
      }),
    });
    expect(chat.status).toBe(404);
  });
});

describe('client timeouts', () => {
  it('are finite by default (headers 60 s, whole request 300 s) and reach the server object', () => {
    expect(clientTimeouts(loadConfig({}))).toMatchObject({
      headersTimeout: 60_000,
      requestTimeout: 300_000,
      keepAliveTimeout: 65_000,
    });
    const server = gw.gateway.server;
    expect(server.headersTimeout).toBe(1_000);
    expect(server.requestTimeout).toBe(1_000);
    expect(server.keepAliveTimeout).toBe(65_000);
  });

  it('headers that do not finish arriving in time: 408 request_timeout', async () => {
    const slow = await timed(() => sendRaw(gw.url, 'GET /api/v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '));
    expect(slow.res.status).toBe(408);
    expect(JSON.parse(slow.res.body).error.metadata.reason).toBe('request_timeout');
    expect(slow.ms).toBeLessThan(2_500);
  });

  it('a body that does not finish arriving in time: 408', async () => {
    const slow = await timed(() =>
      sendRaw(gw.url, `${post('/api/v1/chat/completions', [`Authorization: Bearer ${user.key}`], 1000)}\r\n{"mo`),
    );
    expect(slow.res.status).toBe(408);
    expect(slow.ms).toBeLessThan(2_500);
  });

  it('the answer is not the request: a stream of ~2.4 s runs past both 1 s deadlines to its end', async () => {
    const chunk = (content: string) => ({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta: { content }, finish_reason: null }],
    });
    const sse = openAiSse([
      chunk('a'),
      chunk('b'),
      { ...chunk(''), choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ]);
    upstream.reply({ kind: 'sse', chunks: [sse[0], { pauseMs: 1200 }, sse[1], { pauseMs: 1200 }, ...sse.slice(2)] });
    const streamed = await readSse(
      await gw.fetch('/api/v1/chat/completions', {
        method: 'POST',
        key: user.key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'openai/gpt-5.4-mini',
          messages: [{ role: 'user', content: 'hi' }],
          stream: true,
        }),
      }),
    );
    expect(streamed.done).toBe(true);
    expect(streamed.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('ab');
  });
});

async function timed<T>(fn: () => Promise<T>): Promise<{ res: T; ms: number }> {
  const started = performance.now();
  const res = await fn();
  return { res, ms: performance.now() - started };
}
