// Client faults are the client's: malformed JSON, a connection reset halfway through the body, a stream the client
// abandons. None of them logs at error level (alerts fire on those), and the process keeps serving.
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';

let gw: TestGateway;
let upstream: MockUpstream;
let user: { key: string; userId: string };

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 5);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.reset();
  gw.logs.length = 0;
});

const errorLines = () => gw.logs.filter((line) => JSON.parse(line).level >= 50);
const waitFor = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
};
const requestLines = () => gw.logs.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');

async function stillServing(): Promise<void> {
  expect((await gw.fetch('/api/v1/key', { key: user.key })).status).toBe(200);
}

describe('client faults log below error level', () => {
  it('malformed JSON', async () => {
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(res.status).toBe(400);
    expect(errorLines()).toEqual([]);
    await stillServing();
  });

  it('a connection reset halfway through the body', async () => {
    const { hostname, port } = new URL(gw.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${user.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"model":"openai/gpt-test","messages":[{"role":"user","content":"${'x'.repeat(20_000)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.resetAndDestroy();
    await waitFor(() => requestLines().length > 0);
    expect(requestLines()).toHaveLength(1);
    expect(errorLines()).toEqual([]);
    await stillServing();
  });

  it('a stream the client abandons', async () => {
    const chunk = (content: string) => ({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta: { content }, finish_reason: null }],
    });
    const frames = openAiSse([chunk('a'), chunk('b')]);
    upstream.reply({ kind: 'sse', chunks: [frames[0], { pauseMs: 300 }, frames[1], { pauseMs: 300 }, frames[2]] });
    const controller = new AbortController();
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      signal: controller.signal,
      body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await waitFor(() => requestLines().length > 0);
    await gw.settled();
    expect(errorLines()).toEqual([]);
    await stillServing();
  });
});
