// HTTP/2 to upstreams that offer it (issue 35 §5): the gateway's upstream requests arrive over HTTP/2, and concurrent
// streams share one connection instead of each holding a connection of its own. The local upstream's certificate is
// self-signed (test/fixtures/tls, made with `openssl req -x509 -newkey ec ... -subj /CN=localhost -addext
// subjectAltName=DNS:localhost,IP:127.0.0.1 -days 36500`); only this test's HTTP client trusts it.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { HttpClient } from '../../src/providers/http-client.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { HeldUpstream } from '../helpers/held-upstream.js';

const tls = {
  key: readFileSync('test/fixtures/tls/localhost-key.pem'),
  cert: readFileSync('test/fixtures/tls/localhost-cert.pem'),
};
const BODY = JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: true });
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
afterAll(() => agent.destroy());

/** Streams one request; resolves with its status and body once it ends, calling onFirstChunk on its first bytes. */
function stream(
  gw: TestGateway,
  key: string,
  onFirstChunk: () => void = () => undefined,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${gw.url}/api/v1/chat/completions`,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.once('data', onFirstChunk);
        res.on('data', (data: string) => (body += data));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(BODY);
  });
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('HTTP/2 to upstreams', () => {
  let upstream: HeldUpstream | undefined;
  let gw: TestGateway | undefined;
  let client: HttpClient | undefined;
  afterEach(async () => {
    upstream?.release();
    await gw?.close();
    await client?.close();
    await upstream?.close();
    gw = upstream = client = undefined;
  });

  async function start(env: Record<string, string> = {}) {
    upstream = await new HeldUpstream({ tls, deadlineMs: 10_000 }).start();
    const fullEnv = {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      MODELGATE_RATE_LIMIT_RPM: '0',
      MODELGATE_SHUTDOWN_GRACE_SECONDS: '2',
      ...env,
    };
    // The gateway's own client, as server.ts builds it from the configuration, trusting the test certificate too.
    const config = loadConfig({ PORT: '0', ...fullEnv });
    client = new HttpClient({
      connectTimeoutMs: config.upstreamConnectTimeoutMs,
      headersTimeoutMs: config.upstreamHeadersTimeoutMs,
      bodyTimeoutMs: config.upstreamBodyTimeoutMs,
      maxInFlightPerOrigin: config.upstreamConcurrency,
      queueTimeoutMs: config.upstreamQueueTimeoutMs,
      http2: config.upstreamHttp2,
      ca: tls.cert,
    });
    gw = await startTestGateway({ env: fullEnv, overrides: { http: client } });
    const user = await gw.createUser();
    await gw.grant(user.userId, 100);
    return { gw, upstream, key: user.key };
  }

  /** One stream first (the connection is then known to speak HTTP/2), then `count` held open together. */
  async function concurrentAfterOne(gw: TestGateway, upstream: HeldUpstream, key: string, count: number) {
    upstream.release();
    const warm = await stream(gw, key);
    expect(warm.status).toBe(200);
    upstream.hold();
    let started = 0;
    const running = Promise.all(Array.from({ length: count }, () => stream(gw, key, () => started++)));
    await waitFor(() => started === count, 10_000);
    const allStartedTogether = started === count;
    upstream.release();
    const results = await running;
    expect(results.map((r) => r.status)).toEqual(Array(count).fill(200));
    expect(results.every((r) => r.body.includes('data: [DONE]'))).toBe(true);
    return allStartedTogether;
  }

  it('sends upstream requests over HTTP/2, and concurrent streams share one connection', async () => {
    const { gw, upstream, key } = await start();
    expect(await concurrentAfterOne(gw, upstream, key, 20)).toBe(true);
    expect(upstream.httpVersions).toEqual(Array(21).fill('2.0'));
    expect(upstream.maxOpen).toBe(20);
    expect(upstream.connections).toBe(1);
  }, 30_000);

  it('an HTTP/2 connection that goes away mid-stream fails its streams in the stream, and none is sent again', async () => {
    const { gw, upstream, key } = await start();
    upstream.release();
    expect((await stream(gw, key)).status).toBe(200);
    upstream.hold();
    let started = 0;
    const running = Promise.all(Array.from({ length: 5 }, () => stream(gw, key, () => started++)));
    await waitFor(() => started === 5, 10_000);
    upstream.goAway();
    const results = await running;
    // Each stream had begun: its end is an error event in the stream, never a replay of the generation.
    for (const result of results) {
      expect(result.status).toBe(200);
      expect(result.body).toMatch(/"error"/);
    }
    upstream.release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(upstream.started).toBe(6);
  }, 30_000);

  it('speaks HTTP/1.1, one connection per open stream, with MODELGATE_UPSTREAM_HTTP2=false', async () => {
    const { gw, upstream, key } = await start({ MODELGATE_UPSTREAM_HTTP2: 'false' });
    expect(await concurrentAfterOne(gw, upstream, key, 5)).toBe(true);
    expect(upstream.httpVersions).toEqual(Array(6).fill('1.1'));
    expect(upstream.connections).toBe(5);
  }, 30_000);
});
