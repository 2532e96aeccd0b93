// Catalog aliases end to end: the names clients send on their defaults (Gemini CLI's classifier model, bare OpenAI and
// Claude names) are served, billed and recorded as the catalog model they stand for, on every door and lane, listed
// in every listing shape, and held to a key's allow-list by the model that serves.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

let gw: TestGateway;
let upstream: MockUpstream;
let user: { userId: string; key: string };

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-openai-upstream',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: upstream.url,
      GEMINI_API_KEY: 'AIzaUpstream',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 10);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return gw.fetch(`/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.key}`, ...headers },
    body: JSON.stringify(body),
  });
}

async function lastGeneration() {
  return gw.db
    .selectFrom('generations')
    .select(['model', 'upstream_model', 'cost_nanos'])
    .where('user_id', '=', user.userId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
}

describe('a request naming an alias', () => {
  it('chat completions: a bare Claude name is served by the anthropic/ model, and the answer and record name it', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await post('/chat/completions', {
      model: 'claude-sonnet-5-5',
      stream: false,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expect(upstream.last.body.model).toBe('claude-sonnet-5-5');
    expect(body.model).toBe('anthropic/claude-sonnet-5-5');
    const record = await lastGeneration();
    expect(record.model).toBe('anthropic/claude-sonnet-5-5');
    expect(BigInt(record.cost_nanos)).toBeGreaterThan(0n);
  });

  it('Responses, native lane: a bare OpenAI name reaches OpenAI under its vendor name', async () => {
    upstream.reply({ kind: 'json', body: loadJson('openai', 'native-responses-reasoning') });
    const res = await post('/responses', { model: 'gpt-5.5', input: 'Hi' });
    expect(res.status).toBe(200);
    expect(upstream.last.path).toBe('/v1/responses');
    expect(upstream.last.body.model).toBe('gpt-5.5');
    expect((await lastGeneration()).model).toBe('openai/gpt-5.5');
  });

  it('Messages: a bare OpenAI name that is no Claude model resolves as the alias (translated lane)', async () => {
    upstream.reply({ kind: 'json', body: loadJson('openai', 'text') });
    const res = await post(
      '/messages',
      { model: 'gpt-5.4-mini', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(res.status).toBe(200);
    expect(upstream.last.path).toBe('/v1/chat/completions');
    expect(upstream.last.body.model).toBe('gpt-5.4-mini');
    expect((await lastGeneration()).model).toBe('openai/gpt-5.4-mini');
  });

  it("Gemini: Gemini CLI's classifier model is served by Gemini 3.5 Flash, no 404", async () => {
    upstream.reply({ kind: 'json', body: loadJson('gemini', 'text') });
    const res = await gw.fetch('/api/v1/gemini/v1beta/models/gemini-3.5-flash-lite:generateContent', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': user.key },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Classify' }] }] }),
    });
    expect(res.status).toBe(200);
    expect(upstream.last.path).toBe('/v1beta/models/gemini-3.5-flash:generateContent');
    expect((await lastGeneration()).model).toBe('google/gemini-3.5-flash');
  });

  it("a key's allow-list holds for the model that serves, whatever name the request used", async () => {
    const created = await post('/api-keys', { name: 'openai-only', allowed_models: ['openai/*'] });
    // API keys cannot create keys: use the account token.
    expect(created.status).toBe(403);
    const token = await gw.createToken(user.userId);
    const made = await gw.fetch('/api/v1/api-keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'openai-only', allowed_models: ['openai/*'] }),
    });
    expect(made.status).toBe(201);
    const { key } = await made.json();
    const res = await post(
      '/chat/completions',
      { model: 'claude-sonnet-5-5', stream: false, messages: [{ role: 'user', content: 'Hi' }] },
      { authorization: `Bearer ${key}` },
    );
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toContain('anthropic/claude-sonnet-5-5');
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('aliases in the listings', () => {
  const get = (path: string, headers: Record<string, string> = {}) =>
    gw.fetch(`/api/v1${path}`, { headers: { authorization: `Bearer ${user.key}`, ...headers } });

  it("GET /models lists each alias under its own id with alias_for, after the catalog's models", async () => {
    const { data } = await (await get('/models')).json();
    const alias = data.find((m: { id: string }) => m.id === 'gpt-5.5');
    expect(alias).toMatchObject({ id: 'gpt-5.5', alias_for: 'openai/gpt-5.5' });
    const model = data.find((m: { id: string }) => m.id === 'openai/gpt-5.5');
    expect(model.alias_for).toBeUndefined();
    expect(alias.pricing).toEqual(model.pricing);
    expect(data.findIndex((m: { id: string }) => m.id === 'gpt-5.5')).toBeGreaterThan(data.indexOf(model));
  });

  it('GET /models/{id} of an alias shows the alias', async () => {
    const res = await get('/models/google%2Fgemini-3.5-flash-lite');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: 'google/gemini-3.5-flash-lite',
      alias_for: 'google/gemini-3.5-flash',
    });
  });

  it("Anthropic's Models API shape lists the bare Claude aliases (Claude Code keeps ids starting with claude)", async () => {
    const { data } = await (await get('/models?limit=1000', { 'anthropic-version': '2023-06-01' })).json();
    const ids = data.map((m: { id: string }) => m.id);
    expect(ids).toContain('claude-sonnet-5-5');
    expect(ids).toContain('anthropic/claude-sonnet-5-5');
  });

  it("the Gemini listing names Gemini CLI's models as Google does", async () => {
    const res = await gw.fetch('/api/v1/gemini/v1beta/models?pageSize=1000', {
      headers: { 'x-goog-api-key': user.key },
    });
    const { models } = await res.json();
    const names = models.map((m: { name: string }) => m.name);
    expect(names).toContain('models/gemini-3.5-flash-lite');
    expect(names).toContain('models/gemini-3-flash-preview');
    const one = await gw.fetch('/api/v1/gemini/v1beta/models/gemini-3.5-flash-lite', {
      headers: { 'x-goog-api-key': user.key },
    });
    expect(one.status).toBe(200);
    expect((await one.json()).name).toBe('models/gemini-3.5-flash-lite');
  });
});
