// The response cache keeps a native lane's answer the way it keeps a translated one (docs/response-cache.md): the
// upstream's JSON bytes or its events, with the door's rewrites, replayed on a hit without a call upstream.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { sseEvents } from '../helpers/native-sse.js';

const fixture = (vendor: string, name: string) =>
  readFileSync(new URL(`../fixtures/${vendor}/${name}`, import.meta.url), 'utf8');

let gw: TestGateway;
let upstream: MockUpstream;
let key: string;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-up',
      ANTHROPIC_BASE_URL: upstream.url,
    },
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 50);
  key = user.key;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const post = (path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  gw.fetch(`/api/v1${path}`, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', 'x-modelgate-cache': 'on', ...headers },
    body: JSON.stringify(body),
  });

describe('native answers in the response cache', () => {
  it("Responses → OpenAI, JSON: the hit is OpenAI's Response as first served, its cost the hit's", async () => {
    upstream.reply({ kind: 'json', body: JSON.parse(fixture('openai', 'native-responses-reasoning.json')) });
    const body = { model: 'openai/gpt-5.5', input: 'cache me' };
    const first = await (await post('/responses', body)).json();
    const hit = await post('/responses', body);
    expect(hit.headers.get('x-modelgate-cache')).toBe('hit');
    const replay = await hit.json();
    expect(upstream.requests).toHaveLength(1);
    // The hit is an answer of its own: its id is its generation's (a later turn may continue it), the rest as served.
    expect(replay.id).toMatch(/^gen-/);
    expect(replay.id).not.toBe(first.id);
    expect({ ...replay, id: first.id, usage: undefined }).toEqual({ ...first, usage: undefined });
    // A hit costs nothing by default: its usage says so.
    expect(replay.usage).toMatchObject({ input_tokens: 12000, cost: 0, cost_details: { charged: false } });
  });

  it("Responses → OpenAI, stream: the hit replays OpenAI's events in order, event lines included", async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('openai', 'native-responses-text.chunks.txt')] });
    const body = { model: 'openai/gpt-5.5', input: 'cache my stream', stream: true };
    const first = sseEvents(await (await post('/responses', body)).text());
    const hit = await post('/responses', body);
    expect(hit.headers.get('x-modelgate-cache')).toBe('hit');
    const replay = sseEvents(await hit.text());
    expect(upstream.requests).toHaveLength(1);
    expect(replay.map((e) => e.event)).toEqual(first.map((e) => e.event));
    // Every event names the hit's own response id, where the first answer's named its own.
    const firstId = JSON.parse(first[0].data).response.id as string;
    const replayId = JSON.parse(replay[0].data).response.id as string;
    expect(replayId).not.toBe(firstId);
    const withFirstId = replay.map((e) => ({ ...e, data: e.data.replaceAll(replayId, firstId) }));
    expect(withFirstId.slice(0, -1)).toEqual(first.slice(0, -1));
    expect(JSON.parse(replay.at(-1)!.data).response.usage).toMatchObject({ input_tokens: 900, cost: 0 });
  });

  it("Messages → Anthropic, stream: the hit replays Anthropic's events", async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic', 'native-messages-claude-code.chunks.txt')] });
    const body = {
      model: 'anthropic/claude-sonnet-5-5',
      max_tokens: 1000,
      stream: true,
      messages: [{ role: 'user', content: 'cache me' }],
    };
    const headers = { 'anthropic-version': '2023-06-01' };
    const first = sseEvents(await (await post('/messages', body, headers)).text());
    const hit = await post('/messages', body, headers);
    expect(hit.headers.get('x-modelgate-cache')).toBe('hit');
    expect(sseEvents(await hit.text())).toEqual(first);
    expect(upstream.requests).toHaveLength(1);
  });

  it('an answer that failed is not kept', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('openai', 'native-responses-mid-stream-error.chunks.txt')] });
    upstream.always({ kind: 'sse', chunks: [fixture('openai', 'native-responses-text.chunks.txt')] });
    const body = { model: 'openai/gpt-5.5', input: 'fails first', stream: true };
    await (await post('/responses', body)).text();
    const second = await post('/responses', body);
    expect(second.headers.get('x-modelgate-cache')).toBe('miss');
    await second.text();
    expect(upstream.requests).toHaveLength(2);
  });
});
