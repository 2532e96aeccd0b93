// The access line: one per request with exactly the fields the middleware builds, while the logger it derives from
// keeps redacting everything else.
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { describe, expect, it, vi } from 'vitest';
import { accessLog } from '../../src/http/access-log.js';
import { requestId } from '../../src/http/request-id.js';
import { createLogger } from '../../src/logger.js';

function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}

describe('accessLog', () => {
  it('logs one line per request with id, method, path, status, time and whether the client left', async () => {
    const { logger, lines } = memoryLogger();
    const app = new Koa();
    app.use(requestId());
    app.use(accessLog(logger));
    app.use((ctx) => {
      ctx.status = 201;
      ctx.body = { ok: true };
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/x?secret=q`, {
        headers: { authorization: 'Bearer mg-v1-should-not-appear', 'x-request-id': 'req-abc' },
      });
      await res.text();
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      server.close();
    }
    const access = lines.filter((line) => line.msg === 'request');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 30,
      request_id: 'req-abc',
      method: 'GET',
      path: '/api/v1/x',
      status: 201,
      aborted: false,
    });
    expect(typeof access[0]!.ms).toBe('number');
    expect(Object.keys(access[0]!).sort()).toEqual([
      'aborted',
      'level',
      'method',
      'ms',
      'msg',
      'path',
      'request_id',
      'status',
      'time',
    ]);
    expect(JSON.stringify(lines)).not.toContain('mg-v1-should-not-appear');
  });

  it("logs 499, not Koa's default 404, for a client that left before the response began", async () => {
    const { logger, lines } = memoryLogger();
    const app = new Koa();
    app.use(accessLog(logger));
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    app.use(async (ctx) => {
      entered();
      await new Promise((resolve) => ctx.res.once('close', resolve));
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const controller = new AbortController();
      const pending = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/slow`, {
        signal: controller.signal,
      }).catch(() => undefined);
      await handlerEntered;
      controller.abort();
      await pending;
      await vi.waitFor(() => expect(lines.filter((line) => line.msg === 'request')).toHaveLength(1));
    } finally {
      server.close();
    }
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({
      path: '/api/v1/slow',
      status: 499,
      aborted: true,
    });
  });

  it('leaves the redaction of the logger it was given in place', () => {
    const { logger, lines } = memoryLogger();
    accessLog(logger);
    logger.info({ authorization: 'Bearer mg-v1-secret', nested: { key: 'mg-v1-other' } }, 'other');
    expect(lines[0]).toMatchObject({ authorization: '[redacted]', nested: { key: '[redacted]' } });
  });
});
