// Codex opens `GET {base}/responses` as a WebSocket before it falls back to HTTP (research-clients.md §4.2a). The
// gateway answers the upgrade with 426 in the chat door's envelope, so Codex falls back at once; a plain GET of the
// route stays the router's 405. Sent over a raw socket: fetch() refuses to send Connection/Upgrade headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { sendRaw } from '../helpers/raw-http.js';

let gw: TestGateway;
let user: { key: string };
beforeAll(async () => {
  gw = await startTestGateway();
  user = await gw.createUser();
});
afterAll(async () => {
  await gw?.close();
});

// A WebSocket opening handshake as Codex sends it (RFC 6455 §4.1).
const upgrade = (path: string, headers: string[] = [], connection = 'Upgrade') =>
  [
    `GET ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Connection: ${connection}`,
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ...headers,
    '',
    '',
  ].join('\r\n');

describe('the Responses WebSocket probe', () => {
  it('GET /responses with Upgrade: websocket → 426 in the chat envelope, never a switch of protocols', async () => {
    const res = await sendRaw(gw.url, upgrade('/api/v1/responses', [`Authorization: Bearer ${user.key}`]));
    expect(res.status).toBe(426);
    expect(res.headers.connection).toBe('close');
    const body = JSON.parse(res.body);
    expect(body.error).toMatchObject({ code: 426, metadata: { reason: 'websocket_not_supported' } });
    expect(body.error.message).toMatch(/POST \/responses/);
  });

  it('without a credential the probe gets the same 426 (Codex falls back before it would authenticate)', async () => {
    const res = await sendRaw(gw.url, upgrade('/api/v1/responses'));
    expect(res.status).toBe(426);
  });

  it('a plain GET of /responses stays 405 with Allow: POST', async () => {
    const res = await gw.fetch('/api/v1/responses', { method: 'GET', key: user.key });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('an Upgrade on another path is not the probe: /chat/completions stays 405', async () => {
    // `close` too, so that the connection ends after the 405 (sendRaw reads until it does).
    const res = await sendRaw(gw.url, upgrade('/api/v1/chat/completions', [], 'Upgrade, close'));
    expect(res.status).toBe(405);
  });
});
