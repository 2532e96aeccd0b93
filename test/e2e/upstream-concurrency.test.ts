// Concurrent streams to one upstream origin (issue 35 §5): none waits silently behind a connection pool. With the
// default cap, 300 streams held open at once all start; past a configured cap a request waits in a queue that
// /metrics shows, and past the queue timeout it gets a clear 503 in its door's envelope.
import http from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { HeldUpstream } from '../helpers/held-upstream.js';
import { metricValue } from '../helpers/serve-process.js';

const TOKEN = 'scrape-token-abcdefghijklmnop';
const CHAT_BODY = JSON.stringify({
  model: 'openai/gpt-test',
  messages: [{ role: 'user', content: 'hi' }],
  stream: true,
});
const MESSAGES_BODY = JSON.stringify({
  model: 'openai/gpt-test',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'hi' }],
  stream: true,
});

/** An agent without a socket cap of its own: the client must not be what holds requests back. */
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
afterAll(() => agent.destroy());

interface Timed {
  status: number;
  /** ms since the start of the test, when the first body bytes and the end arrived. */
  firstChunkAt: number;
  endAt: number;
  body: string;
}

function post(
  gw: TestGateway,
  path: string,
  key: string,
  body: string,
  t0: number,
  onFirstChunk?: () => void,
): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${gw.url}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'anthropic-version': '2023-06-01',
        },
      },
      (res) => {
        let firstChunkAt = NaN;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (data: string) => {
          if (Number.isNaN(firstChunkAt)) {
            firstChunkAt = performance.now() - t0;
            onFirstChunk?.();
          }
          text += data;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, firstChunkAt, endAt: performance.now() - t0, body: text }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function scrape(gw: TestGateway): Promise<string> {
  return (await gw.fetch('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text();
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('concurrent upstream streams', () => {
  let upstream: HeldUpstream | undefined;
  let gw: TestGateway | undefined;
  afterEach(async () => {
    // Held streams end first, so the gateway's graceful stop has nothing left to wait for.
    upstream?.release();
    await gw?.close();
    await upstream?.close();
    gw = upstream = undefined;
  });

  async function start(held: HeldUpstream, env: Record<string, string> = {}) {
    upstream = await held.start();
    gw = await startTestGateway({
      env: {
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: `${upstream.url}/v1`,
        MODELGATE_RATE_LIMIT_RPM: '0',
        MODELGATE_RATE_LIMIT_TPM: '0',
        MODELGATE_METRICS_TOKEN: TOKEN,
        MODELGATE_SHUTDOWN_GRACE_SECONDS: '2',
        ...env,
      },
    });
    const user = await gw.createUser();
    await gw.grant(user.userId, 1000);
    return { gw, upstream, key: user.key };
  }

  it('with the default cap, 300 streams to one origin all get their first chunk before any of them ends', async () => {
    const streams = 300;
    const { gw, upstream, key } = await start(new HeldUpstream());
    const t0 = performance.now();
    let firstChunks = 0;
    const running = Promise.all(
      Array.from({ length: streams }, () =>
        post(gw, '/api/v1/chat/completions', key, CHAT_BODY, t0, () => firstChunks++),
      ),
    );
    // Every stream stays open until all 300 clients have their first chunk, or 10 s passed: a gateway that holds
    // some back fails here rather than hangs.
    await waitFor(async () => firstChunks === streams, 10_000).catch(() => undefined);
    upstream.release();
    const results = await running;
    expect(results.map((r) => r.status)).toEqual(Array(streams).fill(200));
    expect(results.every((r) => r.body.includes('data: [DONE]'))).toBe(true);
    expect(upstream.maxOpen).toBe(streams);
    const lastFirstChunk = Math.max(...results.map((r) => r.firstChunkAt));
    const firstEnd = Math.min(...results.map((r) => r.endAt));
    expect(lastFirstChunk).toBeLessThan(firstEnd);
  }, 60_000);

  it('past a configured cap, a request waits in a queue /metrics shows, then gets a clear 503 after the queue timeout', async () => {
    const { gw, upstream, key } = await start(new HeldUpstream({ deadlineMs: 10_000 }), {
      MODELGATE_UPSTREAM_CONCURRENCY: '1',
      MODELGATE_UPSTREAM_QUEUE_TIMEOUT_MS: '600',
    });
    const t0 = performance.now();
    // The first stream holds the one upstream slot.
    const holding = post(gw, '/api/v1/chat/completions', key, CHAT_BODY, t0);
    await waitFor(async () => upstream.open === 1);
    const waiting = post(
      gw,
      '/api/v1/chat/completions',
      key,
      JSON.stringify({ ...JSON.parse(CHAT_BODY), stream: false }),
      t0,
    );
    const origin = new URL(upstream.url).origin;
    await waitFor(async () => metricValue(await scrape(gw), 'modelgate_upstream_requests_queued', { origin }) === 1);
    const metrics = await scrape(gw);
    expect(metricValue(metrics, 'modelgate_upstream_requests_in_flight', { origin })).toBe(1);

    const refused = await waiting;
    expect(refused.status).toBe(503);
    expect(refused.endAt).toBeGreaterThanOrEqual(600);
    const error = JSON.parse(refused.body).error;
    expect(error.code).toBe(503);
    expect(error.metadata).toMatchObject({ provider: 'openai', reason: 'upstream_queue_timeout' });
    expect(error.message).toMatch(/busy/);
    expect(error.message).toMatch(/600 ms/);
    // The upstream never saw it.
    expect(upstream.started).toBe(1);

    // The Messages door answers in Anthropic's envelope.
    const viaMessages = await post(gw, '/api/v1/messages', key, MESSAGES_BODY, t0);
    expect(viaMessages.status).toBe(503);
    expect(JSON.parse(viaMessages.body)).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });

    const after = await scrape(gw);
    expect(metricValue(after, 'modelgate_upstream_requests_queued', { origin })).toBe(0);
    expect(metricValue(after, 'modelgate_upstream_queue_timeouts_total', { origin })).toBe(2);
    expect(
      metricValue(after, 'modelgate_upstream_attempts_total', { provider: 'openai', outcome: 'queue_timeout' }),
    ).toBe(2);

    // Once the stream ends its slot is free again: the next request is served.
    upstream.release();
    expect((await holding).status).toBe(200);
    const next = await post(gw, '/api/v1/chat/completions', key, CHAT_BODY, t0);
    expect(next.status).toBe(200);
    expect(next.body).toContain('data: [DONE]');
    await gw.settled();
    await waitFor(async () => metricValue(await scrape(gw), 'modelgate_upstream_requests_in_flight', { origin }) === 0);
  }, 30_000);

  it('a queued request is served as soon as the stream ahead of it ends, within the queue timeout', async () => {
    const { gw, upstream, key } = await start(new HeldUpstream({ deadlineMs: 10_000 }), {
      MODELGATE_UPSTREAM_CONCURRENCY: '1',
      MODELGATE_UPSTREAM_QUEUE_TIMEOUT_MS: '20000',
    });
    const t0 = performance.now();
    const holding = post(gw, '/api/v1/chat/completions', key, CHAT_BODY, t0);
    await waitFor(async () => upstream.open === 1);
    const queued = post(gw, '/api/v1/chat/completions', key, CHAT_BODY, t0);
    const origin = new URL(upstream.url).origin;
    await waitFor(async () => metricValue(await scrape(gw), 'modelgate_upstream_requests_queued', { origin }) === 1);
    expect(upstream.started).toBe(1);
    upstream.release();
    const [first, second] = await Promise.all([holding, queued]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toContain('data: [DONE]');
    expect(upstream.maxOpen).toBe(1);
  }, 30_000);
});
