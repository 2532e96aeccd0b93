// The Schemathesis finding of issue 26, kept here so a regression shows without Schemathesis: a header value with a
// control character is refused by Node's HTTP parser before Koa runs, and the answer must still pass every response
// check of the operation it was sent to. The other parser refusals (no operation documents them one by one) must
// carry the documented error envelope and a request id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/conformance/openapi-document.js';
import { createSchemaValidator } from '../../src/conformance/schema-validator.js';
import { checkExchange, type CheckContext } from '../../src/conformance/response-checks.js';
import type { Exchange } from '../../src/conformance/http-exchange.js';
import { sendRaw } from '../helpers/raw-http.js';
import { startContractGateway, type ContractGateway } from './helpers/contract-gateway.js';

const doc = await loadDocument();
const ctx: CheckContext = { doc, validator: createSchemaValidator(doc) };

let target: ContractGateway;
beforeAll(async () => {
  target = await startContractGateway();
});
afterAll(async () => {
  await target?.close();
});

const body = JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: false });

describe('requests refused below the app', () => {
  it.each([
    ['HTTP-Referer', '\x01'],
    ['X-Title', 'a\x7fb'],
  ])('%s with a control character: createChatCompletion checks pass on the answer', async (name, value) => {
    const raw = await sendRaw(
      target.gw.url,
      `POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${target.user.key}\r\n` +
        `Content-Type: application/json\r\n${name}: ${value}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    const exchange: Exchange = {
      request: {
        operationId: 'createChatCompletion',
        method: 'POST',
        path: '/chat/completions',
        query: [],
        headers: { 'content-type': 'application/json', [name.toLowerCase()]: value },
        body,
        description: `control character in ${name}`,
        expect: 'rejection',
      },
      url: `${target.gw.url}/api/v1/chat/completions`,
      status: raw.status,
      headers: raw.headers,
      body: raw.body,
      elapsedMs: 0,
    };
    const op = doc.operations.find((o) => o.operationId === 'createChatCompletion')!;
    expect(checkExchange(ctx, op, exchange)).toEqual([]);
    expect(raw.status).toBe(400);
  });

  it.each([
    [
      'headers over the limit',
      `GET /api/v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
    ],
    ['a malformed request line', 'GET /api/v1/models HTTP/9.9\r\n\r\n', 400],
  ])('%s: the documented envelope and a request id', async (_name, bytes, status) => {
    const raw = await sendRaw(target.gw.url, bytes);
    expect(raw.status).toBe(status);
    expect(raw.headers['x-request-id']).toBeTruthy();
    expect(raw.headers['content-type']).toMatch(/^application\/json/);
    expect(ctx.validator.validate('#/components/schemas/ErrorResponse', JSON.parse(raw.body))).toEqual({
      valid: true,
      errors: [],
    });
  });
});
