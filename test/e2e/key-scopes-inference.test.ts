// Key scopes, issue 35 §1: an API key (inference) with a USD limit and an allow-list calls models and reads its own
// account, may revoke itself, and can neither create a key, nor widen itself, nor delete another key; the operator's
// view shows its limit and allow-list unchanged after every such attempt.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { createAdminKey } from '../../src/services/admin-keys.js';

let gw: TestGateway;
let upstream: MockUpstream;
let admin: string;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      DEEPSEEK_API_KEY: 'sk-up',
      DEEPSEEK_BASE_URL: upstream.url,
    },
  });
  admin = (await createAdminKey(gw.db, { name: 'ops' })).secret;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

async function call(method: string, path: string, key: string, body?: unknown) {
  const res = await gw.fetch(`/api/v1${path}`, {
    method,
    key,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const completion = {
  kind: 'json' as const,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-test-2026',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 },
  },
};

/** An account with a budgeted key (1 USD a day, openai/* only) and a sibling, both made with the account token. */
async function budgetedAccount() {
  const owner = await gw.createUser();
  await gw.grant(owner.userId, 5);
  const token = await gw.createToken(owner.userId);
  const ci = await call('POST', '/api-keys', token, {
    name: 'ci',
    limit: 1,
    limit_reset: 'daily',
    allowed_models: ['openai/*'],
  });
  const sibling = await call('POST', '/api-keys', token, { name: 'sibling' });
  expect([ci.status, sibling.status]).toEqual([201, 201]);
  return { owner, token, ci: ci.body, sibling: sibling.body };
}

/** The operator's view of the account's keys. */
async function operatorView(userId: string) {
  const res = await call('GET', `/admin/users/${userId}/keys`, admin);
  expect(res.status).toBe(200);
  return res.body.data as any[];
}

function expectNeedsManager(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body.error.metadata.reason).toBe('management_credential_required');
  expect(res.body.error.message).toContain('account auth token');
  expect(res.body.error.message).toContain('management key');
}

describe('an API key with a budget cannot escape it', () => {
  it('POST /api-keys is 403 naming the credential needed, for either kind, and creates nothing', async () => {
    const { owner, ci } = await budgetedAccount();
    const before = await operatorView(owner.userId);
    expectNeedsManager(await call('POST', '/api-keys', ci.key, {}));
    expectNeedsManager(await call('POST', '/api-keys', ci.key, { name: 'unlimited', kind: 'management' }));
    expect(await operatorView(owner.userId)).toEqual(before);
  });

  it('PATCH of its own id with {"limit": null, "allowed_models": null} is 403; limit and allow-list stay', async () => {
    const { owner, ci, sibling } = await budgetedAccount();
    const widen = await call('PATCH', `/api-keys/${ci.key_id}`, ci.key, { limit: null, allowed_models: null });
    expectNeedsManager(widen);
    expect(widen.body.error.message).toContain('its own included');
    // Harmless-looking changes are refused too: a key never changes keys.
    expectNeedsManager(await call('PATCH', `/api-keys/${ci.key_id}`, ci.key, { name: 'renamed' }));
    expectNeedsManager(await call('PATCH', `/api-keys/${sibling.key_id}`, ci.key, { disabled: true }));
    const view = await operatorView(owner.userId);
    expect(view.find((k) => k.key_id === ci.key_id)).toMatchObject({
      name: 'ci',
      kind: 'inference',
      limit: 1,
      limit_reset: 'daily',
      allowed_models: ['openai/*'],
      disabled: false,
    });
    expect(view.find((k) => k.key_id === sibling.key_id)).toMatchObject({ disabled: false });
    // And the gateway still enforces them: a model outside the allow-list is refused.
    const outside = await call('POST', '/chat/completions', ci.key, {
      model: 'deepseek/deepseek-reasoner',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
    expect(outside.body.error.metadata.reason).toBe('model_not_allowed');
    expect(upstream.requests).toHaveLength(0);
  });

  it("DELETE of another key is 403 (not 404, whoever's it is) and every key is still there", async () => {
    const { owner, ci, sibling } = await budgetedAccount();
    const stranger = await gw.createUser();
    const before = await operatorView(owner.userId);
    const res = await call('DELETE', `/api-keys/${sibling.key_id}`, ci.key);
    expectNeedsManager(res);
    expect(res.body.error.message).toContain('only itself');
    expectNeedsManager(await call('DELETE', `/api-keys/${owner.keyId}`, ci.key));
    expectNeedsManager(await call('DELETE', `/api-keys/${stranger.keyId}`, ci.key));
    expectNeedsManager(await call('DELETE', '/api-keys/key_does_not_exist', ci.key));
    expect(await operatorView(owner.userId)).toEqual(before);
    expect((await call('GET', '/key', sibling.key)).status).toBe(200);
    expect((await call('GET', '/key', stranger.key)).status).toBe(200);
  });

  it('DELETE of its own id revokes it: 200, then 401 everywhere; the other keys keep working', async () => {
    const { owner, ci, sibling } = await budgetedAccount();
    expect((await call('GET', '/key', ci.key)).status).toBe(200);
    const revoked = await call('DELETE', `/api-keys/${ci.key_id}`, ci.key);
    expect(revoked).toEqual({ status: 200, body: { deleted: true, key_id: ci.key_id } });
    expect((await call('GET', '/key', ci.key)).status).toBe(401);
    expect(
      (
        await call('POST', '/chat/completions', ci.key, {
          model: 'openai/gpt-test',
          messages: [{ role: 'user', content: 'hi' }],
          stream: false,
        })
      ).status,
    ).toBe(401);
    expect((await operatorView(owner.userId)).map((k) => k.key_id)).not.toContain(ci.key_id);
    expect((await call('GET', '/key', sibling.key)).status).toBe(200);
  });
});

describe('an API key calls models and reads its own account', () => {
  it('GET /key, /credits, /api-keys and /generation answer 200; GET /key says it is an inference key', async () => {
    const { ci, sibling } = await budgetedAccount();
    upstream.reply(completion);
    const chat = await call('POST', '/chat/completions', ci.key, {
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
    expect(chat.status).toBe(200);
    const key = await call('GET', '/key', ci.key);
    expect(key.status).toBe(200);
    expect(key.body.data).toMatchObject({
      key_id: ci.key_id,
      kind: 'inference',
      limit: 1,
      allowed_models: ['openai/*'],
    });
    expect((await call('GET', '/credits', ci.key)).status).toBe(200);
    const listed = await call('GET', '/api-keys', ci.key);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((k: any) => k.key_id)).toEqual(expect.arrayContaining([ci.key_id, sibling.key_id]));
    expect(listed.body.data.every((k: any) => k.kind === 'inference')).toBe(true);
    const generation = await call('GET', `/generation?id=${encodeURIComponent(chat.body.id)}`, ci.key);
    expect(generation.status, JSON.stringify(generation.body)).toBe(200);
  });
});
