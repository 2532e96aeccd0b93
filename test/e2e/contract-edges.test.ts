// Contract edges (issue 35 §7): a query parameter with an empty name is 400 on every operation, in the door's own error
// shape; /messages answers its parser-level errors (invalid JSON, wrong content type, and requests Node's HTTP parser
// refuses) in Anthropic's error shape like every other /messages error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import definition from '../../generated/openapi.json' with { type: 'json' };
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { sendRaw } from '../helpers/raw-http.js';
import { createAdminKey } from '../../src/services/admin-keys.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations = Object.entries(definition.paths as Record<string, Record<string, { operationId?: string }>>).flatMap(
  ([template, item]) =>
    METHODS.filter((method) => item[method]?.operationId).map((method) => ({
      operationId: item[method].operationId!,
      method: method.toUpperCase(),
      path: `/api/v1${template.replace(/\{[^}]+\}/g, 'x_1')}`,
    })),
);

let gw: TestGateway;
let user: { key: string; userId: string };
let admin: string;

beforeAll(async () => {
  gw = await startTestGateway();
  user = await gw.createUser();
  admin = (await createAdminKey(gw.db, { name: 'ops' })).secret;
});
afterAll(async () => {
  await gw?.close();
});

const isMessages = (path: string) => path.startsWith('/api/v1/messages');
const isGemini = (path: string) => path.startsWith('/api/v1/gemini/');

describe('a query parameter with an empty name', () => {
  it.each(operations)("$operationId: 400 in the door's shape", async ({ method, path }) => {
    for (const query of ['?=x', '?a=1&=2']) {
      const res = await gw.fetch(`${path}${query}`, {
        method,
        key: path.startsWith('/api/v1/admin') ? admin : user.key,
        ...(method === 'GET' || method === 'DELETE'
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: '{}' }),
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as any;
      if (isMessages(path))
        expect(body).toEqual({
          type: 'error',
          error: { type: 'invalid_request_error', message: expect.stringContaining('empty name') },
        });
      // Google's envelope on the Gemini door.
      else if (isGemini(path))
        expect(body.error).toMatchObject({
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: expect.stringContaining('empty name'),
          details: [{ reason: 'empty_query_parameter_name' }],
        });
      else expect(body.error).toMatchObject({ code: 400, metadata: { reason: 'empty_query_parameter_name' } });
    }
  });

  it('still comes after authentication, and empty pieces without "=" are only separators', async () => {
    expect((await gw.fetch('/api/v1/models?=x')).status).toBe(401);
    expect((await gw.fetch('/api/v1/models?&', { key: user.key })).status).toBe(200);
    expect((await gw.fetch('/api/v1/generations?&limit=1&', { key: user.key })).status).toBe(200);
  });
});

describe("/messages parser-level errors in Anthropic's shape", () => {
  const messages = (init: RequestInit) => gw.fetch('/api/v1/messages', { method: 'POST', key: user.key, ...init });

  it('invalid JSON and a wrong content type: 400 invalid_request_error', async () => {
    for (const init of [
      { headers: { 'content-type': 'application/json' }, body: '{"model":' },
      { headers: { 'content-type': 'text/plain' }, body: 'hi' },
    ]) {
      const res = await messages(init);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.any(String) },
      });
    }
  });

  it.each([
    [
      'a control character in a header',
      400,
      'invalid_request_error',
      'POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\x01b\r\nContent-Length: 2\r\n\r\n{}',
    ],
    [
      'headers over the size limit',
      431,
      'invalid_request_error',
      `POST /api/v1/messages/count_tokens?beta=true HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`,
    ],
    [
      'a malformed Content-Length',
      400,
      'invalid_request_error',
      'POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1x\r\n\r\n{}',
    ],
  ])(
    "refused by the HTTP parser (%s): %i in Anthropic's shape, with a request id and Connection: close",
    async (_name, status, type, bytes) => {
      const res = await sendRaw(gw.url, bytes);
      expect(res.status).toBe(status);
      expect(res.headers['x-request-id']).toMatch(/^req_/);
      expect(res.headers.connection).toBe('close');
      expect(JSON.parse(res.body)).toEqual({ type: 'error', error: { type, message: expect.any(String) } });
    },
  );

  it("other paths keep the gateway's envelope for the same refusal", async () => {
    const res = await sendRaw(
      gw.url,
      'POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\x01b\r\nContent-Length: 2\r\n\r\n{}',
    );
    expect(JSON.parse(res.body).error).toMatchObject({ code: 400, metadata: { reason: 'invalid_header' } });
  });
});

describe('GET /models/{model_id}: the 400s it answers are documented', () => {
  const doc = definition as any;
  const getModel = doc.paths['/models/{model_id}'].get;

  it('the document lists 400 for it, in either envelope', () => {
    expect(Object.keys(getModel.responses)).toContain('400');
  });

  it("a query parameter given twice: 400 in the gateway's envelope, and in Anthropic's with anthropic-version", async () => {
    const path = '/api/v1/models/openai%2Fgpt-5.4-mini?beta=true&beta=true';
    const own = await gw.fetch(path, { key: user.key });
    expect(own.status).toBe(400);
    expect(((await own.json()) as any).error).toMatchObject({ code: 400, metadata: { field: 'beta' } });
    const anthropic = await gw.fetch(path, { key: user.key, headers: { 'anthropic-version': '2023-06-01' } });
    expect(anthropic.status).toBe(400);
    expect(await anthropic.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('beta') },
    });
  });

  it('a control character in anthropic-version: 400', async () => {
    const res = await sendRaw(
      gw.url,
      `GET /api/v1/models/openai%2Fgpt-5.4-mini HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${user.key}\r\nanthropic-version: 2023\x01-06-01\r\n\r\n`,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toMatchObject({ code: 400, metadata: { reason: 'invalid_header' } });
  });
});

describe('path parameters', () => {
  const params = Object.entries(definition.paths as Record<string, Record<string, any>>).flatMap(([template, item]) =>
    METHODS.flatMap((method) =>
      (item[method]?.parameters ?? [])
        .filter((p: any) => p.in === 'path')
        .map((p: any) => ({ at: `${method.toUpperCase()} ${template} {${p.name}}`, schema: p.schema })),
    ),
  );

  it('every one is declared non-empty (minLength 1, or a number of at least 1)', () => {
    expect(params.length).toBeGreaterThan(15);
    const nonEmpty = (schema: any) =>
      schema?.minLength === 1 ||
      (schema?.type === 'integer' && typeof schema.minimum === 'number' && schema.minimum >= 1);
    expect(params.filter((p) => !nonEmpty(p.schema)).map((p) => p.at)).toEqual([]);
  });
});
