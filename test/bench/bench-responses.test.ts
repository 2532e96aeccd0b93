// The bench's Responses and Messages requests end to end: the bench mock upstream as a real process, the gateway
// in-process in front of it; the smoke check accepts each door's stream of the mock's reply and rejects a failed one.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessGroup, freePort, waitForPort } from '../../bench/lib/processes.js';
import { GATEWAY_MODEL, messagesStreamBody, messagesUrl, responsesStreamBody, responsesUrl } from '../../bench/lib/requests.js';
import { checkDoorStream, MESSAGES_STREAM, RESPONSES_STREAM } from '../../bench/lib/front-door-smoke.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const group = new ProcessGroup();
let gw: TestGateway;
let key: string;
let mockUrl = '';

beforeAll(async () => {
  const port = await freePort();
  const child = group.start('mock', process.execPath, ['--import', 'tsx', 'bench/mock-upstream.ts', String(port)], {
    env: process.env,
    logFile: path.join(mkdtempSync(path.join(tmpdir(), 'bench-responses-')), 'mock.log'),
  });
  await waitForPort(port, child, 'mock', 20_000);
  mockUrl = `http://127.0.0.1:${port}`;
  gw = await startTestGateway({
    env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json', OPENAI_API_KEY: 'sk-up', OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  key = user.key;
}, 60_000);
afterAll(async () => {
  await gw?.close();
  await group.stopAll();
});

describe('bench: /responses streaming request', () => {
  it('targets the gateway route next to chat completions, and streams every word of the mock', async () => {
    const url = responsesUrl(`${gw.url}/api/v1/chat/completions`);
    expect(url).toBe(`${gw.url}/api/v1/responses`);
    await expect(checkDoorStream(url, { authorization: `Bearer ${key}` }, responsesStreamBody(GATEWAY_MODEL), RESPONSES_STREAM)).resolves.toBeUndefined();
  });

  it('rejects an HTTP error, and a 200 stream that is not a whole Responses stream', async () => {
    await expect(checkDoorStream(`${gw.url}/api/v1/responses`, { authorization: 'Bearer mg-v1-wrong' }, responsesStreamBody(GATEWAY_MODEL), RESPONSES_STREAM)).rejects.toThrow(/HTTP 401/);
    // The mock's own chat-completions stream: HTTP 200, but no response.* events.
    const chat = JSON.stringify({ model: 'gpt-test-2026', messages: [{ role: 'user', content: 'hi' }], stream: true });
    await expect(checkDoorStream(`${mockUrl}/v1/chat/completions`, {}, chat, RESPONSES_STREAM)).rejects.toThrow(/0\/\d+ text deltas, last event none/);
  });
});

describe('bench: /messages streaming request', () => {
  it('targets the gateway route next to chat completions, and streams every word of the mock as Anthropic events', async () => {
    const url = messagesUrl(`${gw.url}/api/v1/chat/completions`);
    expect(url).toBe(`${gw.url}/api/v1/messages`);
    await expect(checkDoorStream(url, { authorization: `Bearer ${key}` }, messagesStreamBody(GATEWAY_MODEL), MESSAGES_STREAM)).resolves.toBeUndefined();
  });

  it('rejects an HTTP error, and a whole Responses stream where a Messages stream is expected', async () => {
    await expect(checkDoorStream(`${gw.url}/api/v1/messages`, { authorization: 'Bearer mg-v1-wrong' }, messagesStreamBody(GATEWAY_MODEL), MESSAGES_STREAM)).rejects.toThrow(/HTTP 401/);
    const responses = responsesUrl(`${gw.url}/api/v1/chat/completions`);
    await expect(checkDoorStream(responses, { authorization: `Bearer ${key}` }, responsesStreamBody(GATEWAY_MODEL), MESSAGES_STREAM)).rejects.toThrow(/0\/\d+ text deltas, last event response.completed/);
  });
});
