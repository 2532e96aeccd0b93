// Requests that Node's HTTP parser refuses before Koa sees them still get the error envelope, a request id and
// Connection: close; the warn line names the reason, never the bytes; a socket whose response already started is
// closed without a second answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { sendRaw, type RawResponse } from '../helpers/raw-http.js';
import { answerClientErrors } from '../../src/http/client-error-envelope.js';
import { createLogger } from '../../src/logger.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

function expectEnvelope(res: RawResponse, status: number, reason: string) {
  expect(res.status, res.raw.slice(0, 200)).toBe(status);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers.connection).toBe('close');
  expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  const body = JSON.parse(res.body);
  expect(body).toEqual({
    error: { code: status, message: expect.any(String), metadata: { request_id: res.headers['x-request-id'], reason } },
  });
  return body;
}

function refusalLines(logs: string[], requestId: string): string[] {
  return logs.filter((line) => line.includes(requestId));
}

describe('parser-level refusals get the envelope', () => {
  it('a control character in a header value → 400 invalid_header, logged at warn without the bytes', async () => {
    const res = await sendRaw(
      gw.url,
      'POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nHTTP-Referer: \x01secret-ish\r\nContent-Length: 2\r\n\r\n{}',
    );
    expectEnvelope(res, 400, 'invalid_header');
    const lines = refusalLines(gw.logs, res.headers['x-request-id']);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 40,
      status: 400,
      reason: 'invalid_header',
      parser_code: 'HPE_INVALID_HEADER_TOKEN',
    });
    expect(lines[0]).not.toMatch(/secret-ish|\\u0001|HTTP-Referer/i);
  });

  it('headers over the size limit → 431 headers_too_large', async () => {
    const res = await sendRaw(
      gw.url,
      `GET /api/v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    const body = expectEnvelope(res, 431, 'headers_too_large');
    expect(body.error.message).toContain(String(http.maxHeaderSize));
    const lines = refusalLines(gw.logs, res.headers['x-request-id']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('aaaaaaaa');
  });

  it.each([
    ['an unknown method', 'HELLO\r\n\r\n'],
    ['a space in the target', 'GET /api/v1/a b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['an unknown protocol version', 'GET /api/v1/models HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n'],
  ])('a malformed request line (%s) → 400 malformed_request_line', async (_name, bytes) => {
    expectEnvelope(await sendRaw(gw.url, bytes), 400, 'malformed_request_line');
  });

  it('oversized chunk extensions in a body → 413 chunk_extensions_too_large', async () => {
    const res = await sendRaw(
      gw.url,
      `POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1;ext=${'b'.repeat(20_000)}\r\n{\r\n`,
    );
    expectEnvelope(res, 413, 'chunk_extensions_too_large');
  });

  it('a well-formed request on the same server still gets its normal answer', async () => {
    const res = await gw.fetch('/api/v1/models');
    expect(res.status).toBe(401);
    expect(res.headers.get('connection')).not.toBe('close');
  });
});

describe('answerClientErrors on a bare server', () => {
  async function listen(
    server: http.Server,
  ): Promise<{ url: string; lines: Record<string, unknown>[]; close(): Promise<void> }> {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    answerClientErrors(server, createLogger('debug', sink));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      lines,
      close: () => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(() => resolve()));
      },
    };
  }

  it('headers that do not finish arriving → 408 request_timeout', async () => {
    // The checking interval and the timeout are Node's own mechanism, shortened; the test waits for the answer.
    const server = http.createServer(
      { headersTimeout: 100, requestTimeout: 0, connectionsCheckingInterval: 20 },
      (_req, res) => res.end(),
    );
    const target = await listen(server);
    try {
      const res = await sendRaw(target.url, 'GET /api/v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      expectEnvelope(res, 408, 'request_timeout');
      expect(target.lines.filter((l) => l.msg === 'request refused by the HTTP parser')).toHaveLength(1);
    } finally {
      await target.close();
    }
  });

  it('a refusal after a response has started is not answered: the connection is closed', async () => {
    let started!: () => void;
    const headersSent = new Promise<void>((resolve) => (started = resolve));
    // The first response sends its headers and part of its body, then stays open (a stream in progress).
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial', () => started());
    });
    const target = await listen(server);
    try {
      const res = await sendRaw(
        target.url,
        'GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
        () => headersSent,
        'HELLO\r\n\r\n',
      );
      expect(res.status).toBe(200);
      expect(res.raw).not.toContain('HTTP/1.1 400');
      expect(res.raw).not.toContain('"error"');
      expect(target.lines.some((l) => l.msg === 'request refused by the HTTP parser')).toBe(false);
    } finally {
      await target.close();
    }
  });
});
