// OpenAI's Responses WebSocket mode on GET /api/v1/responses: the handshake is authenticated as a POST is (a bad key is
// a 401 answer and no switch of protocols); each response.create frame is validated against POST /responses' schema
// and served by the same pipeline — admitted, billed and recorded as a POST — its events one JSON text frame each; a
// warm-up (`generate: false`) calls no model; one turn at a time; a refusal is an `error` event with the status a POST
// would get and the socket stays open; a revoked key ends the socket; a client gone mid-turn stops the upstream call
// and the turn settles once; every model runs its lane (native for OpenAI, translated for Claude, Gemini, DeepSeek).
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { openResponsesSocket, refusedHandshake } from '../helpers/ws-client.js';
import { sendRaw } from '../helpers/raw-http.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

let gw: TestGateway;
let upstream: MockUpstream;
let user: Awaited<ReturnType<TestGateway['createUser']>>;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-proj-operator-secret-0123456789',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-up',
      ANTHROPIC_BASE_URL: upstream.url,
      GEMINI_API_KEY: 'AIzaUp',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
      DEEPSEEK_API_KEY: 'sk-deepseek',
      DEEPSEEK_BASE_URL: upstream.url,
      MODELGATE_WEBSOCKET_PING_SECONDS: '1',
      // A client gone stops the upstream at once (reasoning models are otherwise read on to bill hidden tokens).
      MODELGATE_DRAIN_ON_ABORT_S: '0',
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 50);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const create = (fields: Record<string, unknown> = {}) => ({
  type: 'response.create',
  model: 'openai/gpt-5.5',
  input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hello' }] }],
  store: false,
  ...fields,
});

/** The user's generation records, newest first (a native-lane answer carries OpenAI's response id, not ours). */
async function records(userId = user.userId) {
  await gw.settled();
  return gw.db
    .selectFrom('generations')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
}

describe('the handshake', () => {
  it('a bad key is a 401 in the gateway envelope, and no switch of protocols', async () => {
    const refused = await refusedHandshake(gw.url, { authorization: 'Bearer mg-not-a-key' });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body).error).toMatchObject({ code: 401 });
    expect((await refusedHandshake(gw.url, {})).status).toBe(401);
  });

  it('an Upgrade on another path is answered by its route over HTTP: /chat/completions stays 405', async () => {
    const res = await sendRaw(
      gw.url,
      [
        'GET /api/v1/chat/completions HTTP/1.1',
        'Host: 127.0.0.1',
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        '',
        '',
      ].join('\r\n'),
    );
    expect(res.status).toBe(405);
  });

  it('a plain GET of /responses stays 405 with Allow: POST, DELETE', async () => {
    const res = await gw.fetch('/api/v1/responses', { method: 'GET', key: user.key });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'POST']);
  });
});

describe('turns on one socket', () => {
  it('serves response.create on the native lane: one JSON event per text frame, billed and recorded as a POST', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('openai/native-responses-text.chunks.txt')] });
    const client = await openResponsesSocket(gw.url, user.key, { 'openai-beta': 'responses_websockets=2026-02-06' });
    client.send(create());
    const events = await client.turn();
    expect(events[0].type).toBe('response.created');
    const completed = events.at(-1)!;
    expect(completed.type).toBe('response.completed');
    expect(completed.response.model).toBe('openai/gpt-5.5');
    expect(upstream.last.path).toBe('/v1/responses');
    // The transport's fields never reach OpenAI: it is asked for a stream, as over HTTP.
    expect(upstream.last.body).toMatchObject({ stream: true, store: false, model: 'gpt-5.5' });
    expect(upstream.last.body.type).toBeUndefined();
    // The WebSocket mode's beta flag names the client's transport, not a feature of the HTTP call made upstream.
    expect(upstream.last.headers['openai-beta']).toBeUndefined();
    const [row] = await records();
    expect(row).toMatchObject({ api_format: 'responses', status: 'success' });
    expect(BigInt(row.cost_nanos)).toBeGreaterThan(0n);
    client.ws.close();
  });

  it('answers a generate:false warm-up with response.created and response.completed, calling no model', async () => {
    const client = await openResponsesSocket(gw.url, user.key);
    client.send(create({ generate: false, tools: [] }));
    const events = await client.turn();
    expect(events.map((e) => e.type)).toEqual(['response.created', 'response.completed']);
    expect(events[1].response).toMatchObject({ status: 'completed', output: [] });
    expect(upstream.requests).toHaveLength(0);
    client.ws.close();
  });

  it('a bad frame is an error event with status 400 and the socket stays open for the next turn', async () => {
    const client = await openResponsesSocket(gw.url, user.key);
    client.ws.send('not json');
    expect(await client.next()).toMatchObject({ type: 'error', status: 400 });
    client.send(create({ temperature: 7 }));
    const invalid = await client.next();
    expect(invalid).toMatchObject({ type: 'error', status: 400, error: { type: 'invalid_request_error' } });
    expect(invalid.error.message).toMatch(/temperature/);
    client.send({ type: 'session.update' });
    expect(await client.next()).toMatchObject({ type: 'error', status: 400, error: { param: 'type' } });
    upstream.reply({ kind: 'sse', chunks: [fixture('openai/native-responses-text.chunks.txt')] });
    client.send(create());
    expect((await client.turn()).at(-1)!.type).toBe('response.completed');
    client.ws.close();
  });

  it('takes one turn at a time: a second response.create while one runs is refused, the first completes', async () => {
    const text = fixture('openai/native-responses-text.chunks.txt');
    const cut = text.indexOf('\n\n') + 2;
    upstream.reply({ kind: 'sse', chunks: [text.slice(0, cut), { pauseMs: 300 }, text.slice(cut)] });
    const client = await openResponsesSocket(gw.url, user.key);
    client.send(create());
    expect((await client.next()).type).toBe('response.created');
    client.send(create());
    const events = await client.turn();
    const refusal = events.find((e) => e.type === 'error');
    expect(refusal).toMatchObject({ status: 400, error: { code: 'response_already_in_flight' } });
    const rest = await client.turn();
    expect(rest.at(-1)!.type).toBe('response.completed');
    expect(upstream.requests).toHaveLength(1);
    client.ws.close();
  });

  it('a turn refused for credit is the error event with status 402; the socket stays open', async () => {
    const poor = await gw.createUser();
    const client = await openResponsesSocket(gw.url, poor.key);
    client.send(create());
    const [refusal] = await client.turn();
    expect(refusal).toMatchObject({ type: 'error', status: 402, error: { type: 'insufficient_quota' } });
    expect(upstream.requests).toHaveLength(0);
    await gw.grant(poor.userId, 20);
    upstream.reply({ kind: 'sse', chunks: [fixture('openai/native-responses-text.chunks.txt')] });
    client.send(create());
    expect((await client.turn()).at(-1)!.type).toBe('response.completed');
    client.ws.close();
  });

  it('a key revoked while its socket is open: the next turn is a 401 error event and the socket closes (1008)', async () => {
    const owner = await gw.createUser();
    await gw.grant(owner.userId, 5);
    const client = await openResponsesSocket(gw.url, owner.key);
    const deleted = await gw.fetch(`/api/v1/api-keys/${owner.keyId}`, { method: 'DELETE', key: owner.key });
    expect(deleted.status).toBeLessThan(300);
    client.send(create());
    expect(await client.next()).toMatchObject({ type: 'error', status: 401 });
    expect((await client.closed).code).toBe(1008);
    expect(upstream.requests).toHaveLength(0);
  });

  it('a client gone mid-turn stops the upstream call, and the turn settles once', async () => {
    const text = fixture('openai/native-responses-text.chunks.txt');
    const cut = text.indexOf('\n\n') + 2;
    upstream.reply({ kind: 'sse', chunks: [text.slice(0, cut), { pauseMs: 5000 }, text.slice(cut)] });
    const before = upstream.closedConnections;
    const leaver = await gw.createUser();
    await gw.grant(leaver.userId, 20);
    const client = await openResponsesSocket(gw.url, leaver.key);
    client.send(create({ model: 'openai/gpt-5.5', reasoning: undefined }));
    expect((await client.next()).type).toBe('response.created');
    client.ws.terminate();
    await expect.poll(() => upstream.closedConnections, { timeout: 10_000 }).toBeGreaterThan(before);
    const rows = await records(leaver.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0].status).not.toBe('success');
  });

  it('pings the client (heartbeat)', async () => {
    const client = await openResponsesSocket(gw.url, user.key);
    await new Promise<void>((resolve) => client.ws.once('ping', () => resolve()));
    client.ws.close();
  });
});

describe("previous_response_id from the socket's memory", () => {
  const userItem = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

  it('a turn that sends only its new items reaches the model with the whole conversation', async () => {
    upstream.reply(
      { kind: 'sse', chunks: [fixture('openai/native-responses-text.chunks.txt')] },
      { kind: 'sse', chunks: [fixture('openai/native-responses-text.chunks.txt')] },
    );
    const client = await openResponsesSocket(gw.url, user.key);
    client.send(create({ input: [userItem('first')] }));
    const first = (await client.turn()).at(-1)!;
    expect(first.type).toBe('response.completed');
    client.send(create({ previous_response_id: first.response.id, input: [userItem('second')] }));
    expect((await client.turn()).at(-1)!.type).toBe('response.completed');
    const sent = upstream.requests[1].body;
    expect(sent.previous_response_id).toBeUndefined();
    expect(sent.input).toEqual([userItem('first'), ...first.response.output, userItem('second')]);
    client.ws.close();
  });

  it('a chain started on OpenAI continues on Claude, the earlier turn translated', async () => {
    upstream.reply(
      { kind: 'sse', chunks: [fixture('openai/native-responses-text.chunks.txt')] },
      { kind: 'sse', chunks: [fixture('anthropic/text.chunks.txt')] },
    );
    const client = await openResponsesSocket(gw.url, user.key);
    client.send(create({ input: [userItem('first question')] }));
    const first = (await client.turn()).at(-1)!;
    client.send(
      create({
        model: 'anthropic/claude-haiku-5-5',
        previous_response_id: first.response.id,
        input: [userItem('second question')],
      }),
    );
    expect((await client.turn()).at(-1)!.type).toBe('response.completed');
    const { messages } = upstream.requests[1].body;
    expect(JSON.stringify(messages[0])).toContain('first question');
    expect(messages.at(-1).role).toBe('user');
    expect(JSON.stringify(messages.at(-1))).toContain('second question');
    expect(messages.some((m: { role: string }) => m.role === 'assistant')).toBe(true);
    client.ws.close();
  });

  it('a warm-up is a turn to continue: its items lead the next turn', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('openai/native-responses-text.chunks.txt')] });
    const client = await openResponsesSocket(gw.url, user.key);
    client.send(create({ generate: false, input: [userItem('context')] }));
    const warm = (await client.turn()).at(-1)!;
    client.send(create({ previous_response_id: warm.response.id, input: [userItem('go')] }));
    expect((await client.turn()).at(-1)!.type).toBe('response.completed');
    expect(upstream.last.body.input).toEqual([userItem('context'), userItem('go')]);
    client.ws.close();
  });

  it('an unknown id, or a store:false turn of another socket, is previous_response_not_found', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('openai/native-responses-text.chunks.txt')] });
    const client = await openResponsesSocket(gw.url, user.key);
    client.send(create({ previous_response_id: 'resp_nowhere' }));
    expect(await client.next()).toMatchObject({
      type: 'error',
      status: 400,
      error: { code: 'previous_response_not_found', param: 'previous_response_id' },
    });
    client.send(create());
    const first = (await client.turn()).at(-1)!;
    const other = await openResponsesSocket(gw.url, user.key);
    other.send(create({ previous_response_id: first.response.id }));
    expect(await other.next()).toMatchObject({ type: 'error', error: { code: 'previous_response_not_found' } });
    expect(upstream.requests).toHaveLength(1);
    client.ws.close();
    other.ws.close();
  });
});

describe("the openai SDK's WebSocket client", () => {
  it('ResponsesWS runs a turn, continues it with only the new input, and surfaces an error event', async () => {
    upstream.reply(
      { kind: 'sse', chunks: [fixture('openai/native-responses-text.chunks.txt')] },
      { kind: 'sse', chunks: [fixture('anthropic/text.chunks.txt')] },
    );
    const sdk = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: user.key, maxRetries: 0 });
    const socket = new ResponsesWS(sdk);
    const completed = () =>
      new Promise<OpenAI.Responses.ResponseCompletedEvent>((resolve) => socket.once('response.completed', resolve));
    const first = completed();
    socket.send({ type: 'response.create', model: 'openai/gpt-5.5', input: 'Say hello', store: false });
    const answer = await first;
    expect(answer.response.status).toBe('completed');
    const second = completed();
    socket.send({
      type: 'response.create',
      model: 'anthropic/claude-haiku-5-5',
      previous_response_id: answer.response.id,
      input: 'And again',
      store: false,
    });
    expect((await second).response.model).toBe('anthropic/claude-haiku-5-5');
    expect(JSON.stringify(upstream.last.body.messages)).toContain('Say hello');
    const failed = new Promise<{ error?: unknown }>((resolve) => socket.once('error', resolve));
    socket.send({ type: 'response.create', model: 'openai/gpt-5.5', input: 'x', temperature: 9 });
    expect((await failed).error).toMatchObject({ type: 'error', status: 400 });
    socket.close();
  });
});

describe('every model over WebSocket', () => {
  const cases = [
    {
      model: 'anthropic/claude-haiku-5-5',
      chunks: 'anthropic/text.chunks.txt',
      path: (p: string) => p === '/v1/messages',
    },
    {
      model: 'google/gemini-3.1-pro-preview',
      chunks: 'gemini/text.chunks.txt',
      path: (p: string) => p.includes(':streamGenerateContent'),
    },
    {
      model: 'deepseek/deepseek-v4-pro',
      chunks: 'deepseek/reasoning.chunks.txt',
      path: (p: string) => p.endsWith('/chat/completions'),
    },
  ];
  for (const { model, chunks, path } of cases) {
    it(`${model} runs the translated lane`, async () => {
      upstream.reply({ kind: 'sse', chunks: [fixture(chunks)] });
      const client = await openResponsesSocket(gw.url, user.key);
      client.send(create({ model }));
      const events = await client.turn();
      const completed = events.at(-1)!;
      expect(completed.type).toBe('response.completed');
      expect(completed.response.model).toBe(model);
      expect(events.some((e) => e.type === 'response.output_text.delta')).toBe(true);
      expect(path(upstream.last.path)).toBe(true);
      const [row] = await records();
      expect(row.id).toBe(completed.response.id);
      expect(row).toMatchObject({ api_format: 'responses', status: 'success' });
      client.ws.close();
    });
  }
});
