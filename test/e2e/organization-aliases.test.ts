// An organization's own model aliases end to end: set over the API by owners and admins, used on every door (served,
// billed and recorded as the catalog model they name), listed in every listing shape for that organization only,
// never hiding a catalog name, held to a key's allow-list by the model that serves, and chosen with the organization
// the account token acts in (X-Modelgate-Organization), whose budget then applies too.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';
import { createAdminKey } from '../../src/services/admin-keys.js';

let gw: TestGateway;
let upstream: MockUpstream;
let owner: { userId: string; key: string; token: string };
let stranger: { userId: string; key: string };
let admin: string;

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
  const created = await gw.createUser();
  owner = { ...created, token: await gw.createToken(created.userId) };
  stranger = await gw.createUser();
  await gw.grant(owner.userId, 10);
  await gw.grant(stranger.userId, 10);
  admin = (await createAdminKey(gw.db, { name: 'ops' })).secret;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

async function call(method: string, path: string, key: string, options: { body?: unknown; headers?: object } = {}) {
  const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await gw.fetch(`/api/v1${path}`, {
    method,
    key,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const chat = (model: string) => ({ model, stream: false, max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] });

async function lastModel(userId: string): Promise<string> {
  const row = await gw.db
    .selectFrom('generations')
    .select('model')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return row.model;
}

describe('setting aliases', () => {
  it('an owner names a catalog model; a member of no other organization cannot use the name', async () => {
    // Cached first, so the change must reach a principal already in memory. A bare name no catalog knows is malformed.
    expect((await call('POST', '/chat/completions', owner.key, { body: chat('coder') })).status).toBe(400);
    const put = await call('PUT', '/aliases/coder', owner.token, {
      body: { model: 'anthropic/claude-sonnet-5-5', description: 'Our coding model' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({
      name: 'coder',
      model: 'anthropic/claude-sonnet-5-5',
      description: 'Our coding model',
    });
    const list = await call('GET', '/aliases', owner.key);
    expect(list.body.data.map((a: { name: string }) => a.name)).toEqual(['coder']);
    expect((await call('GET', '/aliases', stranger.key)).body.data).toEqual([]);
    const theirs = await call('POST', '/chat/completions', stranger.key, { body: chat('coder') });
    expect(theirs.status).toBe(400);
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses a name a catalog model or catalog alias has, a name with a slash, and an unknown model', async () => {
    const hides = await call('PUT', '/aliases/gpt-5.5', owner.token, {
      body: { model: 'anthropic/claude-sonnet-5-5' },
    });
    expect(hides.status).toBe(400);
    expect(hides.body.error.metadata.reason).toBe('alias_hides_model');
    const slash = await call('PUT', `/aliases/${encodeURIComponent('team/coder')}`, owner.token, {
      body: { model: 'anthropic/claude-sonnet-5-5' },
    });
    expect(slash.status).toBe(400);
    expect(slash.body.error.metadata.reason).toBe('invalid_alias_name');
    const unknown = await call('PUT', '/aliases/ghost', owner.token, { body: { model: 'openai/no-such-model' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.metadata).toMatchObject({ field: 'model', reason: 'unknown_model' });
  });

  it('stores a catalog alias as the model it stands for, and an API key cannot change aliases', async () => {
    const put = await call('PUT', '/aliases/fast', owner.token, { body: { model: 'gpt-5.5' } });
    expect(put.status).toBe(200);
    expect(put.body.model).toBe('openai/gpt-5.5');
    const byKey = await call('PUT', '/aliases/fast', owner.key, { body: { model: 'openai/gpt-5.5' } });
    expect(byKey.status).toBe(403);
  });

  it('audits each change', async () => {
    const log = await call('GET', `/organizations/${owner.userId}/audit-log`, owner.token);
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const actions = log.body.data.map((e: { action: string; target: { id: string } }) => `${e.action}:${e.target.id}`);
    expect(actions).toContain('alias.changed:coder');
  });
});

describe('a request naming an organization alias', () => {
  it('chat completions: served, billed and recorded as the catalog model', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await call('POST', '/chat/completions', owner.key, { body: chat('coder') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expect(upstream.last.body.model).toBe('claude-sonnet-5-5');
    expect(res.body.model).toBe('anthropic/claude-sonnet-5-5');
    expect(await lastModel(owner.userId)).toBe('anthropic/claude-sonnet-5-5');
  });

  it('Messages: the bare name resolves as the alias (native lane)', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await call('POST', '/messages', owner.key, {
      body: { model: 'coder', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] },
      headers: { 'anthropic-version': '2023-06-01' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expect(upstream.last.body.model).toBe('claude-sonnet-5-5');
  });

  it('Responses and Gemini: the alias names the model on every door', async () => {
    upstream.reply({ kind: 'json', body: loadJson('openai', 'native-responses-reasoning') });
    const responses = await call('POST', '/responses', owner.key, { body: { model: 'fast', input: 'Hi' } });
    expect(responses.status, JSON.stringify(responses.body)).toBe(200);
    expect(upstream.last.path).toBe('/v1/responses');
    expect(upstream.last.body.model).toBe('gpt-5.5');

    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const gemini = await call('POST', '/gemini/v1beta/models/coder:generateContent', owner.key, {
      body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
    });
    expect(gemini.status, JSON.stringify(gemini.body)).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expect(await lastModel(owner.userId)).toBe('anthropic/claude-sonnet-5-5');
  });

  it('counts tokens through the alias on the Messages door', async () => {
    upstream.reply({ kind: 'json', body: { input_tokens: 12 } });
    const res = await call('POST', '/messages/count_tokens', owner.key, {
      body: { model: 'coder', messages: [{ role: 'user', content: 'Hi' }] },
      headers: { 'anthropic-version': '2023-06-01' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.input_tokens).toBeGreaterThan(0);
  });

  it("a key's allow-list holds for the model the alias names", async () => {
    const made = await call('POST', '/api-keys', owner.token, {
      body: { name: 'openai-only', allowed_models: ['openai/*'] },
    });
    expect(made.status).toBe(201);
    const res = await call('POST', '/chat/completions', made.body.key, { body: chat('coder') });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('anthropic/claude-sonnet-5-5');
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('aliases in the listings', () => {
  it('GET /models lists the alias for its organization only, in the gateway and Anthropic shapes', async () => {
    const mine = await call('GET', '/models', owner.key);
    expect(mine.body.data.find((m: { id: string }) => m.id === 'coder')).toMatchObject({
      alias_for: 'anthropic/claude-sonnet-5-5',
    });
    const theirs = await call('GET', '/models', stranger.key);
    expect(theirs.body.data.some((m: { id: string }) => m.id === 'coder')).toBe(false);
    const anthropic = await call('GET', '/models?limit=1000', owner.key, {
      headers: { 'anthropic-version': '2023-06-01' },
    });
    expect(anthropic.body.data.map((m: { id: string }) => m.id)).toContain('coder');
    const one = await call('GET', '/models/coder', owner.key);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: 'coder', alias_for: 'anthropic/claude-sonnet-5-5' });
    expect((await call('GET', '/models/coder', stranger.key)).status).toBe(404);
  });

  it('the Gemini listing and model route show it', async () => {
    const list = await call('GET', '/gemini/v1beta/models?pageSize=1000', owner.key);
    expect(list.body.models.map((m: { name: string }) => m.name)).toContain('models/coder');
    const one = await call('GET', '/gemini/v1beta/models/coder', owner.key);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.name).toBe('models/coder');
  });
});

describe('the organization the account token acts in', () => {
  it("uses that organization's aliases and its budget", async () => {
    const org = (
      await call('POST', '/admin/organizations', admin, { body: { name: 'Acme', owner_user_id: stranger.userId } })
    ).body.id as string;
    expect(
      (await call('PUT', `/admin/organizations/${org}/members/${owner.userId}`, admin, { body: { role: 'admin' } }))
        .status,
    ).toBe(200);
    await call('POST', `/admin/organizations/${org}/credits`, admin, { body: { amount: 5 } });
    const inAcme = { 'x-modelgate-organization': org };
    const put = await call('PUT', '/aliases/acme-model', owner.token, {
      body: { model: 'openai/gpt-5.5' },
      headers: inAcme,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // Not the personal organization's alias, and the other way round.
    expect((await call('GET', '/aliases', owner.token)).body.data.map((a: { name: string }) => a.name)).not.toContain(
      'acme-model',
    );
    expect((await call('POST', '/chat/completions', owner.token, { body: chat('acme-model') })).status).toBe(400);
    expect(
      (await call('POST', '/chat/completions', owner.token, { body: chat('coder'), headers: inAcme })).status,
    ).toBe(400);

    // Acme's budget (none left) refuses the request; the personal organization has none.
    const budget = await call('PUT', `/admin/organizations/${org}/budget`, admin, { body: { limit_usd: 0 } });
    expect(budget.status, JSON.stringify(budget.body)).toBe(200);
    const refused = await call('POST', '/chat/completions', owner.token, { body: chat('acme-model'), headers: inAcme });
    expect(refused.status, JSON.stringify(refused.body)).toBe(402);
    expect(refused.body.error.metadata.budget, JSON.stringify(refused.body)).toBe('organization');
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('removing an alias', () => {
  it('the name is unknown again at once', async () => {
    expect((await call('DELETE', '/aliases/coder', owner.token)).body).toEqual({ name: 'coder', deleted: true });
    expect((await call('POST', '/chat/completions', owner.key, { body: chat('coder') })).status).toBe(400);
    expect((await call('DELETE', '/aliases/coder', owner.token)).status).toBe(404);
  });
});
