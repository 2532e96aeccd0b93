// The life of a Responses WebSocket: a socket with no turn for MODELGATE_WEBSOCKET_IDLE_SECONDS is closed (1000), and a
// stopping gateway lets the turn in progress finish, then closes the socket (1001) before it stops.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { openResponsesSocket } from '../helpers/ws-client.js';

const TEXT = readFileSync(new URL('../fixtures/openai/native-responses-text.chunks.txt', import.meta.url), 'utf8');

let upstream: MockUpstream;
beforeAll(async () => {
  upstream = await new MockUpstream().start();
});
afterAll(async () => {
  await upstream?.close();
});

async function gatewayWith(env: Record<string, string> = {}): Promise<{ gw: TestGateway; key: string }> {
  const gw = await startTestGateway({
    env: { OPENAI_API_KEY: 'sk-up', OPENAI_BASE_URL: `${upstream.url}/v1`, ...env },
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 20);
  return { gw, key: user.key };
}

const create = { type: 'response.create', model: 'openai/gpt-5.5', input: 'Say hello', store: false };

describe('a socket with nothing to do', () => {
  it('is closed after the idle timeout with code 1000', async () => {
    const { gw, key } = await gatewayWith({ MODELGATE_WEBSOCKET_IDLE_SECONDS: '1' });
    try {
      upstream.reply({ kind: 'sse', chunks: [TEXT] });
      const client = await openResponsesSocket(gw.url, key);
      client.send(create);
      expect((await client.turn()).at(-1)!.type).toBe('response.completed');
      expect(await client.closed).toEqual({ code: 1000, reason: 'idle timeout' });
    } finally {
      await gw.close();
    }
  });
});

describe('a gateway that stops', () => {
  it('lets the turn in progress finish, then closes the socket with 1001', async () => {
    const { gw, key } = await gatewayWith();
    const cut = TEXT.indexOf('\n\n') + 2;
    upstream.reply({ kind: 'sse', chunks: [TEXT.slice(0, cut), { pauseMs: 500 }, TEXT.slice(cut)] });
    const client = await openResponsesSocket(gw.url, key);
    client.send(create);
    expect((await client.next()).type).toBe('response.created');
    const stopped = gw.close();
    expect((await client.turn()).at(-1)!.type).toBe('response.completed');
    expect((await client.closed).code).toBe(1001);
    await stopped;
  });
});
