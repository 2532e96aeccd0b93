// Key scopes, issue 35 §1: a management key (created with the account token) manages the account's inference keys
// and reads the account but calls no model; management keys themselves are the account token's to create and change.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayWithUpstream, type TestGateway } from '../helpers/gateway.js';
import type { MockUpstream } from '../helpers/mock-upstream.js';

let gw: TestGateway;
let upstream: MockUpstream;
let admin: string;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ gw, upstream, admin, close } = await startGatewayWithUpstream());
});
afterAll(() => close?.());
beforeEach(() => upstream.reset());

function call(method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) {
  return gw.api({ method, path, key, body, headers });
}

async function accountWithManager() {
  const owner = await gw.createUser();
  await gw.grant(owner.userId, 5);
  const token = await gw.createToken(owner.userId);
  const created = await call('POST', '/api-keys', token, { name: 'provisioner', kind: 'management' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { owner, token, manager: created.body };
}

const hello = { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: false };

describe('a management key', () => {
  it('is created by the account token with its own prefix and shows as kind "management" everywhere', async () => {
    const { owner, manager } = await accountWithManager();
    expect(manager).toMatchObject({ kind: 'management', limit: null, allowed_models: null, name: 'provisioner' });
    expect(manager.key).toMatch(/^mgm-v1-[A-Za-z0-9_-]{32}$/);
    const self = await call('GET', '/key', manager.key);
    expect(self.status).toBe(200);
    expect(self.body.data).toMatchObject({ key_id: manager.key_id, kind: 'management' });
    const listed = await call('GET', '/api-keys', manager.key);
    expect(listed.body.data.map((k: any) => [k.key_id, k.kind])).toEqual(
      expect.arrayContaining([
        [manager.key_id, 'management'],
        [owner.keyId, 'inference'],
      ]),
    );
    const operator = await call('GET', `/admin/users/${owner.userId}/keys`, admin);
    expect(operator.body.data.find((k: any) => k.key_id === manager.key_id)).toMatchObject({ kind: 'management' });
    expect((await call('GET', '/credits', manager.key)).status).toBe(200);
  });

  it('creates, changes and deletes inference keys', async () => {
    const { owner, manager } = await accountWithManager();
    const created = await call('POST', '/api-keys', manager.key, {
      name: 'customer',
      limit: 2,
      allowed_models: ['openai/*'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'inference', limit: 2, allowed_models: ['openai/*'] });
    expect(created.body.key).toMatch(/^mg-v1-/);
    const patched = await call('PATCH', `/api-keys/${created.body.key_id}`, manager.key, { limit: 3, disabled: true });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ limit: 3, disabled: true });
    expect((await call('GET', '/key', created.body.key)).status).toBe(401);
    expect((await call('DELETE', `/api-keys/${created.body.key_id}`, manager.key)).status).toBe(200);
    expect((await call('DELETE', `/api-keys/${owner.keyId}`, manager.key)).status).toBe(200);
    // Another account's key is as unknown to it as a missing one.
    const stranger = await gw.createUser();
    expect((await call('DELETE', `/api-keys/${stranger.keyId}`, manager.key)).status).toBe(404);
    expect((await call('GET', '/key', stranger.key)).status).toBe(200);
  });

  it('calls no model: every generation route is 403 naming the credential needed, and nothing reaches upstream', async () => {
    const { manager } = await accountWithManager();
    upstream.always({ kind: 'json', body: {} });
    for (const [path, body] of [
      ['/chat/completions', hello],
      ['/responses', { model: 'openai/gpt-test', input: 'hi' }],
    ] as const) {
      const res = await call('POST', path, manager.key, body);
      expect(res.status, path).toBe(403);
      expect(res.body.error.metadata.reason).toBe('inference_credential_required');
      expect(res.body.error.message).toContain('cannot call models');
      expect(res.body.error.message).toContain('API key (mg-v1-...) or the account auth token');
    }
    for (const path of ['/messages', '/messages/count_tokens']) {
      const res = await call('POST', path, manager.key, {
        model: 'openai/gpt-test',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(res.status, path).toBe(403);
      expect(res.body).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
      expect(res.body.error.message).toContain('cannot call models');
    }
    // The Anthropic SDKs send the key as x-api-key: the same refusal.
    const viaHeader = await gw.fetch('/api/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': manager.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-test', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(viaHeader.status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });

  it('leaves management keys to the account token: cannot mint, change or delete one, but may delete itself', async () => {
    const { token, manager } = await accountWithManager();
    const other = (await call('POST', '/api-keys', token, { name: 'second', kind: 'management' })).body;
    const mint = await call('POST', '/api-keys', manager.key, { kind: 'management' });
    expect(mint.status).toBe(403);
    expect(mint.body.error.metadata.reason).toBe('account_token_required');
    expect(mint.body.error.message).toContain('account auth token');
    for (const [method, id, body] of [
      ['PATCH', manager.key_id, { expires_at: null }],
      ['PATCH', other.key_id, { disabled: true }],
      ['DELETE', other.key_id, undefined],
    ] as const) {
      const res = await call(method, `/api-keys/${id}`, manager.key, body);
      expect(res.status, `${method} ${id}`).toBe(403);
      expect(res.body.error.metadata.reason).toBe('account_token_required');
    }
    expect((await call('GET', '/key', other.key)).status).toBe(200);
    expect((await call('DELETE', `/api-keys/${manager.key_id}`, manager.key)).status).toBe(200);
    expect((await call('GET', '/api-keys', manager.key)).status).toBe(401);
  });
});

describe('the account token', () => {
  it('changes and deletes management keys; a disabled one is refused at once (cached or not)', async () => {
    const { token, manager } = await accountWithManager();
    expect((await call('GET', '/api-keys', manager.key)).status).toBe(200);
    const disabled = await call('PATCH', `/api-keys/${manager.key_id}`, token, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ kind: 'management', disabled: true });
    const refused = await call('POST', '/api-keys', manager.key, {});
    expect(refused.status).toBe(401);
    expect(refused.body.error.metadata.reason).toBe('key_disabled');
    expect((await call('DELETE', `/api-keys/${manager.key_id}`, token)).status).toBe(200);
  });

  it('refuses a limit, reset period or allow-list on a management key with 400 (it spends nothing)', async () => {
    const { token, manager } = await accountWithManager();
    for (const settings of [{ limit: 1 }, { limit_reset: 'daily' }, { allowed_models: ['openai/*'] }]) {
      const created = await call('POST', '/api-keys', token, { kind: 'management', ...settings });
      expect(created.status, JSON.stringify(settings)).toBe(400);
      expect(created.body.error.message).toContain('management key');
      const patched = await call('PATCH', `/api-keys/${manager.key_id}`, token, settings);
      expect(patched.status, JSON.stringify(settings)).toBe(400);
    }
    // Clearing them is no change at all, so it is fine.
    expect(
      (await call('PATCH', `/api-keys/${manager.key_id}`, token, { limit: null, allowed_models: null })).status,
    ).toBe(200);
  });

  it('creates an inference key by default, and may change it like a management key can', async () => {
    const { token } = await accountWithManager();
    const created = await call('POST', '/api-keys', token, { name: 'plain' });
    expect(created.body).toMatchObject({ kind: 'inference' });
    expect((await call('PATCH', `/api-keys/${created.body.key_id}`, token, { limit: 1 })).body).toMatchObject({
      limit: 1,
    });
    expect((await call('POST', '/api-keys', token, { kind: 'root' })).status).toBe(400);
  });
});
