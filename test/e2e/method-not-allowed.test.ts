// Every 405 carries Allow (RFC 9110 §15.5.6) with exactly the methods the OpenAPI document defines for that path;
// checked for every path of the document, before authentication (no credential is sent).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import definition from '../../generated/openapi.json' with { type: 'json' };
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];
const paths = Object.entries(definition.paths as Record<string, Record<string, unknown>>).map(([template, item]) => ({
  template,
  path: `/api/v1${template.replace(/\{[^}]+\}/g, 'x_1')}`,
  defined: METHODS.filter((m) => m in item).map((m) => m.toUpperCase()),
}));

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

describe('405 Method Not Allowed', () => {
  it.each(paths)('$template: Allow lists the documented methods', async ({ path, defined }) => {
    const wrong = ['PATCH', 'PUT', 'DELETE', 'POST'].find((m) => !defined.includes(m))!;
    const res = await gw.fetch(path, { method: wrong });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual([...defined].sort());
    const body = await res.json();
    // The Anthropic Messages routes answer in Anthropic's error shape (their clients' SDKs parse that one).
    if (path.startsWith('/api/v1/messages'))
      expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    // The Gemini routes answer in Google's (Gen AI SDKs, Gemini CLI).
    else if (path.startsWith('/api/v1/gemini'))
      expect(body.error).toMatchObject({ code: 405, status: 'INVALID_ARGUMENT' });
    else expect(body.error).toMatchObject({ code: 405, metadata: { request_id: res.headers.get('x-request-id') } });
  });

  it('GET on a Gemini method path is a 405 of that path, not GET /gemini/v1beta/models/{model} of a model "x:generateContent"', async () => {
    for (const method of ['generateContent', 'streamGenerateContent', 'countTokens']) {
      const res = await gw.fetch(`/api/v1/gemini/v1beta/models/gemini-2.5-flash:${method}`, { method: 'GET' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('a templated path is told its own methods, not those of its parent', async () => {
    const res = await gw.fetch('/api/v1/api-keys/key_123', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('PATCH, DELETE');
    const parent = await gw.fetch('/api/v1/api-keys', { method: 'DELETE' });
    expect(parent.headers.get('allow')).toBe('GET, POST');
  });
});
