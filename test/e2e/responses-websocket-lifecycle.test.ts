// The life of a Responses WebSocket: a socket with no turn for MODELGATE_WEBSOCKET_IDLE_SECONDS is closed (1000), a
// stopping gateway lets the turn in progress finish, then closes the socket (1001) before it stops, and after a restart
// the client reconnects and continues its stored chain (a store:false turn lived on its socket only).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../helpers/databases.js';
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

const upstreamEnv = () => ({ OPENAI_API_KEY: 'sk-up', OPENAI_BASE_URL: `${upstream.url}/v1` });

async function gatewayWith(env: Record<string, string> = {}): Promise<{ gw: TestGateway; key: string }> {
  const gw = await startTestGateway({ env: { ...upstreamEnv(), ...env } });
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

describe('a gateway that restarts while a socket is open', () => {
  const userItem = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

  it('the client reconnects and continues its stored chain; a store:false turn is gone with its socket', async () => {
    const database = await openTestDatabase('pglite', { migrated: true });
    let gw = await startTestGateway({ env: upstreamEnv(), database });
    try {
      const user = await gw.createUser();
      await gw.grant(user.userId, 20);
      upstream.reset();
      upstream.reply({ kind: 'sse', chunks: [TEXT] }, { kind: 'sse', chunks: [TEXT] }, { kind: 'sse', chunks: [TEXT] });
      const before = await openResponsesSocket(gw.url, user.key);
      before.send({ ...create, input: [userItem('first')], store: true });
      const stored = (await before.turn()).at(-1)!;
      expect(stored).toMatchObject({ type: 'response.completed', response: { store: true } });
      before.send({ ...create, input: [userItem('aside')], previous_response_id: stored.response.id });
      const unstored = (await before.turn()).at(-1)!;
      expect(unstored).toMatchObject({ type: 'response.completed', response: { store: false } });

      await gw.close();
      expect((await before.closed).code).toBe(1001);
      gw = await startTestGateway({ env: upstreamEnv(), database });

      const after = await openResponsesSocket(gw.url, user.key);
      after.send({ ...create, input: [userItem('aside again')], previous_response_id: unstored.response.id });
      expect(await after.next()).toMatchObject({ type: 'error', error: { code: 'previous_response_not_found' } });
      after.send({ ...create, input: [userItem('second')], previous_response_id: stored.response.id, store: true });
      expect((await after.turn()).at(-1)).toMatchObject({
        type: 'response.completed',
        response: { previous_response_id: stored.response.id },
      });
      // The new gateway held nothing in memory: the first turn came from storage, sent whole to the model.
      expect(upstream.requests).toHaveLength(3);
      expect(upstream.last.body.input).toEqual([userItem('first'), ...stored.response.output, userItem('second')]);
      after.ws.close();
    } finally {
      await gw.close();
      await database.close();
    }
  });
});
