// GET /health (liveness) and GET /ready (readiness), at the server root and under /api/v1: unauthenticated, no
// access-log line unless they fail, 503 with the reason when the database is unreachable or behind, and 503 as soon
// as a graceful stop begins, while a request in flight is still being served.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { parseRawResponse, sendRaw } from '../helpers/raw-http.js';
import { Lifecycle } from '../../src/health/lifecycle.js';
import { migrations } from '../../src/db/migrations/index.js';

const accessLines = (gw: TestGateway, path: string) =>
  gw.logs.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request' && line.path === path);

describe('probes on a healthy gateway', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ env: { LOG_LEVEL: 'info' } });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it.each([
    ['/health', { status: 'ok' }],
    ['/api/v1/health', { status: 'ok' }],
    ['/ready', { status: 'ready' }],
    ['/api/v1/ready', { status: 'ready' }],
  ])('GET %s → 200 without a credential', async (path, body) => {
    const res = await gw.fetch(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(await res.json()).toEqual(body);
  });

  it('writes no access-log line for a probe that succeeds', async () => {
    for (const path of ['/health', '/ready', '/api/v1/ready']) await (await gw.fetch(path)).text();
    // A request after the probes: once its line is there, the probes' lines would be too.
    await (await gw.fetch('/api/v1/models')).text();
    await vi.waitFor(() => expect(accessLines(gw, '/api/v1/models').length).toBeGreaterThan(0));
    expect([...accessLines(gw, '/health'), ...accessLines(gw, '/ready'), ...accessLines(gw, '/api/v1/ready')]).toEqual(
      [],
    );
  });

  it('answers other methods 405 with Allow: GET', async () => {
    const res = await gw.fetch('/ready', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('turns 503 migrations_pending when the database lacks a migration of this release, and logs it', async () => {
    const last = migrations[migrations.length - 1][0];
    const db = gw.db as any;
    const row = await db.selectFrom('kysely_migration').selectAll().where('name', '=', last).executeTakeFirstOrThrow();
    await db.deleteFrom('kysely_migration').where('name', '=', last).execute();
    try {
      const res = await gw.fetch('/ready');
      expect(res.status).toBe(503);
      expect((await res.json()).error).toMatchObject({
        code: 503,
        metadata: { reason: 'migrations_pending', pending: [last] },
      });
      await vi.waitFor(() => expect(accessLines(gw, '/ready').map((l) => l.status)).toContain(503));
      // Liveness does not look at the database.
      expect((await gw.fetch('/health')).status).toBe(200);
    } finally {
      await db.insertInto('kysely_migration').values(row).execute();
    }
    expect((await gw.fetch('/ready')).status).toBe(200);
  });
});

describe('readiness without a database', () => {
  let database: OpenTestDatabase;
  let gw: TestGateway;
  beforeAll(async () => {
    database = await openTestDatabase('pglite', { migrated: true });
    gw = await startTestGateway({ database });
  });
  afterAll(async () => {
    // Its database is gone: the stop's last writes fail, which is not what this test is about.
    await gw?.close().catch(() => undefined);
  });

  it('turns 503 database_unreachable when the database is closed, while /health stays 200', async () => {
    await database.close();
    const res = await gw.fetch('/ready');
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body.error).toMatchObject({
      code: 503,
      metadata: { reason: 'database_unreachable', request_id: res.headers.get('x-request-id') },
    });
    expect((await gw.fetch('/health')).status).toBe(200);
  });
});

describe('readiness during a graceful stop', () => {
  /** An upstream that holds every request until released: a request in flight, for as long as the test needs. */
  function holdingUpstream() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    const server = http.createServer(async (req, res) => {
      for await (const _chunk of req);
      arrived();
      await released;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'gpt-test-2026',
          choices: [{ index: 0, message: { role: 'assistant', content: 'done' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
        }),
      );
    });
    return { server, received, release };
  }

  const upstream = holdingUpstream();
  // Tells the test when a readiness check has looked at the lifecycle, so nothing below waits on time.
  let checked!: () => void;
  const readinessChecked = new Promise<void>((resolve) => (checked = resolve));
  const lifecycle = new (class extends Lifecycle {
    override get shuttingDown(): boolean {
      if (super.shuttingDown) checked();
      return super.shuttingDown;
    }
  })();
  let gw: TestGateway;
  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
    gw = await startTestGateway({
      env: {
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}/v1`,
        MODELGATE_SHUTDOWN_GRACE_SECONDS: '30',
      },
      overrides: { lifecycle },
    });
  });
  afterAll(async () => {
    await gw?.close();
    upstream.server.closeAllConnections();
    await new Promise((resolve) => upstream.server.close(resolve));
  });

  it('answers 503 shutting_down before the request in flight finishes, which still completes', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    const chat = JSON.stringify({
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
    let closing: Promise<void> | undefined;
    // One connection: the completion, held upstream; then, once the stop has begun, a readiness probe pipelined
    // behind it (a new connection would be refused: the listener closes at once).
    const raw = await sendRaw(
      gw.url,
      `POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${user.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(chat)}\r\n\r\n${chat}`,
      async () => {
        await upstream.received;
        closing = gw.close();
      },
      'GET /ready HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      async () => {
        await readinessChecked;
        upstream.release();
      },
    );
    await closing;
    const first = parseRawResponse(raw.raw);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).choices[0].message.content).toBe('done');
    const second = parseRawResponse(raw.raw.slice(raw.raw.indexOf('HTTP/1.1', 1)));
    expect(second.status).toBe(503);
    expect(JSON.parse(second.body).error).toMatchObject({
      code: 503,
      message: 'Not ready: shutting down',
      metadata: { reason: 'shutting_down' },
    });
    // The stopping instance closes the prober's connection (which is how this exchange ended).
    expect(second.headers.connection).toBe('close');
  }, 60_000);
});
