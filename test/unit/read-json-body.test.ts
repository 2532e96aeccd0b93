// The JSON body reader: one chunk or many, the size limit (413 at once, also for chunked bodies, and the
// connection still serves the next request), parse and content-type failures remembered for later, and a client
// that leaves mid-body failing the read instead of leaving it pending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Koa from 'koa';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { readJsonBody, type BodyState } from '../../src/http/read-json-body.js';

const LIMIT = 1024;
let server: Server;
let port: number;
/** Errors thrown by the reader, in order; each waiter is woken by the next one. */
const thrown: unknown[] = [];
let onThrown: (() => void) | undefined;

beforeAll(async () => {
  const app = new Koa();
  app.silent = true;
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      thrown.push(err);
      onThrown?.();
      const status = (err as { status?: number }).status ?? 500;
      ctx.status = status;
      ctx.body = { status };
    }
  });
  // '/late': the body is read only after the client has gone (a slow step ran first).
  app.use(async (ctx, next) => {
    if (ctx.path === '/late' && !ctx.req.destroyed) await new Promise((resolve) => ctx.req.once('close', resolve));
    await next();
  });
  app.use(readJsonBody(LIMIT));
  app.use((ctx) => {
    const state = ctx.state as BodyState;
    ctx.body = { body: state.body ?? null, error: state.bodyError?.message ?? null };
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Writes the given parts (one write each, the next after the server answered or a short pause), then half-closes. */
function exchange(parts: (string | Buffer)[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (data) => (out += data));
    socket.on('error', reject);
    socket.on('close', () => resolve(out));
    let i = 0;
    const writeNext = () => {
      if (i < parts.length) {
        socket.write(parts[i++]);
        setTimeout(writeNext, 20);
      } else {
        socket.end();
      }
    };
    writeNext();
  });
}

function responses(raw: string): { status: number; body: any }[] {
  return [...raw.matchAll(/HTTP\/1\.1 (\d+)[\s\S]*?\r\n\r\n(\{[^\r]*?\})(?=HTTP|$)/g)].map((m) => ({
    status: Number(m[1]),
    body: JSON.parse(m[2]),
  }));
}

const head = (extra: string) => `POST /x HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n${extra}\r\n`;
const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;

describe('readJsonBody', () => {
  it('parses a body that arrives in one chunk', async () => {
    const [res] = responses(await exchange([`${head('Content-Length: 7\r\n')}{"a":1}`]));
    expect(res).toEqual({ status: 200, body: { body: { a: 1 }, error: null } });
  });

  it('joins a body that arrives in several chunks, including one split inside a UTF-8 character', async () => {
    const text = Buffer.from('{"a":"héllo wörld"}');
    const split = text.indexOf(0xc3) + 1; // between the two bytes of é
    const raw = await exchange([
      head(`Content-Length: ${text.length}\r\n`),
      text.subarray(0, split),
      text.subarray(split),
    ]);
    expect(responses(raw)[0]).toEqual({ status: 200, body: { body: { a: 'héllo wörld' }, error: null } });
  });

  it('remembers malformed JSON and a non-JSON content type instead of throwing; accepts every JSON media type', async () => {
    const [bad] = responses(await exchange([`${head('Content-Length: 3\r\n')}{"a`]));
    expect(bad.status).toBe(200);
    expect(bad.body.error).toMatch(/^Malformed JSON body/);
    const [plain] = responses(
      await exchange(['POST /x HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi']),
    );
    expect(plain.body.error).toBe('Content-Type must be application/json');
    // Other JSON media types (parameters, +json suffixes, other spellings) are still recognised by type-is.
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/vnd.api+json']) {
      const [res] = responses(
        await exchange([`POST /x HTTP/1.1\r\nHost: t\r\nContent-Type: ${type}\r\nContent-Length: 7\r\n\r\n{"t":1}`]),
      );
      expect(res.body, type).toEqual({ body: { t: 1 }, error: null });
    }
  });

  it('leaves an empty body undefined', async () => {
    const [res] = responses(await exchange([head('Content-Length: 0\r\n')]));
    expect(res).toEqual({ status: 200, body: { body: null, error: null } });
  });

  it('answers 413 for a declared length over the limit without reading the body', async () => {
    const [res] = responses(await exchange([`${head(`Content-Length: ${LIMIT + 1}\r\n`)}{`]));
    expect(res).toEqual({ status: 413, body: { status: 413 } });
  });

  it('answers 413 for a chunked body once it passes the limit, and the connection serves the next request', async () => {
    const raw = await exchange([
      head('Transfer-Encoding: chunked\r\n') + chunk('x'.repeat(LIMIT)),
      chunk('y'.repeat(16)),
      `0\r\n\r\n${head('Content-Length: 7\r\n')}{"b":2}`,
    ]);
    expect(responses(raw)).toEqual([
      { status: 413, body: { status: 413 } },
      { status: 200, body: { body: { b: 2 }, error: null } },
    ]);
  });

  it('accepts a chunked body of exactly the limit', async () => {
    const value = 'z'.repeat(LIMIT - 8);
    const json = JSON.stringify({ v: value });
    expect(json.length).toBe(LIMIT);
    const raw = await exchange([
      head('Transfer-Encoding: chunked\r\n') + chunk(json.slice(0, 100)),
      `${chunk(json.slice(100))}0\r\n\r\n`,
    ]);
    expect(responses(raw)[0]).toEqual({ status: 200, body: { body: { v: value }, error: null } });
  });

  it('fails the read when the client leaves mid-body, and keeps serving', async () => {
    const failed = new Promise<void>((resolve) => (onThrown = resolve));
    const count = thrown.length;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(`${head('Content-Length: 100\r\n')}{"a":`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.destroy();
    await failed;
    onThrown = undefined;
    expect(thrown).toHaveLength(count + 1);
    expect((thrown[count] as Error).message).toBe('aborted');
    const [res] = responses(await exchange([`${head('Content-Length: 7\r\n')}{"c":3}`]));
    expect(res.body.body).toEqual({ c: 3 });
  });

  it('fails the read at once when the client left before the reader started', async () => {
    const failed = new Promise<void>((resolve) => (onThrown = resolve));
    const count = thrown.length;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      'POST /late HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.destroy();
    await failed;
    onThrown = undefined;
    expect((thrown[count] as Error).message).toBe('aborted');
  });
});
