// Foundation end to end: authentication, key lifecycle, envelope, request ids, secrets never stored or logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { hashSecret } from '../../src/auth/secrets.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

async function json(res: Response) {
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

describe('authentication', () => {
  it('answers 401 with the envelope for a missing, malformed, unknown or account-less credential', async () => {
    for (const key of [undefined, '', 'mg-v1-doesnotexist', 'sk-whatever', 'mgt-v1-nope']) {
      const res = await json(await gw.fetch('/api/v1/api-keys', key === undefined ? {} : { key }));
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe(401);
      expect(typeof res.body.error.message).toBe('string');
      expect(res.body.error.metadata).toBeTypeOf('object');
    }
    const basic = await gw.fetch('/api/v1/api-keys', { headers: { authorization: 'Basic abc' } });
    expect(basic.status).toBe(401);
  });

  it('accepts an account auth token as a second credential kind', async () => {
    const user = await gw.createUser();
    const token = await gw.createToken(user.userId);
    expect(token.startsWith('mgt-v1-')).toBe(true);
    const res = await json(await gw.fetch('/api/v1/api-keys', { key: token }));
    expect(res.status).toBe(200);
    expect(res.body.data.map((k: any) => k.key_id)).toEqual([user.keyId]);
  });

  it('judges credentials before bodies: bad key + malformed JSON is 401', async () => {
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: 'mg-v1-invalid',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(res.status).toBe(401);
  });
});

describe('API keys', () => {
  it('creates (value shown once), lists without secrets, deletes, and the deleted key is 401 on the next request', async () => {
    const owner = await gw.createUser();
    // Keys are managed with the account token (or a management key): see key-scopes-*.test.ts.
    const token = await gw.createToken(owner.userId);
    const created = await json(
      await gw.fetch('/api/v1/api-keys', {
        method: 'POST',
        key: token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'ci' }),
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^mg-v1-[A-Za-z0-9_-]{32}$/);
    expect(created.body.name).toBe('ci');
    expect(created.body.prefix).toBe(`${created.body.key.slice(0, 14)}...`);
    expect(created.headers.get('cache-control')).toBe('no-store');

    const listed = await json(await gw.fetch('/api/v1/api-keys', { key: owner.key }));
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    expect(listed.body.data[0]).toEqual({
      key_id: created.body.key_id,
      name: 'ci',
      prefix: created.body.prefix,
      kind: 'inference',
      // The key is its maker's: the user of the personal organization.
      member_id: owner.userId,
      created_at: expect.any(String),
      last_used_at: null,
      usage: 0,
      usage_daily: 0,
      usage_weekly: 0,
      usage_monthly: 0,
      limit: null,
      limit_remaining: null,
      limit_reset: null,
      expires_at: null,
      disabled: false,
      allowed_models: null,
      guardrails: [],
    });

    // The new key works.
    expect((await gw.fetch('/api/v1/api-keys', { key: created.body.key })).status).toBe(200);

    const deleted = await json(
      await gw.fetch(`/api/v1/api-keys/${created.body.key_id}`, { method: 'DELETE', key: token }),
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, key_id: created.body.key_id });

    const after = await json(await gw.fetch('/api/v1/api-keys', { key: created.body.key }));
    expect(after.status).toBe(401);
    const again = await gw.fetch(`/api/v1/api-keys/${created.body.key_id}`, { method: 'DELETE', key: token });
    expect(again.status).toBe(404);
  });

  it("answers 404 for another user's key and leaves it untouched", async () => {
    const alice = await gw.createUser();
    const mallory = await gw.createUser();
    const malloryToken = await gw.createToken(mallory.userId);
    const res = await json(await gw.fetch(`/api/v1/api-keys/${alice.keyId}`, { method: 'DELETE', key: malloryToken }));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe(404);
    // Mallory's API key may delete only itself: 403 before any lookup, so it learns nothing about the id either.
    expect(
      (await json(await gw.fetch(`/api/v1/api-keys/${alice.keyId}`, { method: 'DELETE', key: mallory.key }))).status,
    ).toBe(403);
    expect((await gw.fetch('/api/v1/api-keys', { key: alice.key })).status).toBe(200);
  });

  it('rejects an invalid create body with 400 naming the field', async () => {
    const user = await gw.createUser();
    const res = await json(
      await gw.fetch('/api/v1/api-keys', {
        method: 'POST',
        key: await gw.createToken(user.userId),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 42 }),
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(400);
    expect(res.body.error.metadata.field).toBe('name');
  });

  it('stores only hashes: no secret appears in the database or in the logs', async () => {
    const user = await gw.createUser();
    const token = await gw.createToken(user.userId);
    const created = await json(
      await gw.fetch('/api/v1/api-keys', {
        method: 'POST',
        key: token,
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    const secret: string = created.body.key;
    await gw.fetch('/api/v1/api-keys', { key: secret });
    await gw.parts.lastUsed.flush();
    const rows = await gw.db.selectFrom('api_keys').selectAll().execute();
    const dump = JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    expect(dump).not.toContain(secret);
    expect(dump).not.toContain(user.key);
    expect(dump).toContain(hashSecret(secret));
    const logs = gw.logs.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(user.key);
    expect(logs).not.toContain(secret.slice(6));
    expect(logs).not.toContain(token);
  });

  it('records last use of a key (batched)', async () => {
    const user = await gw.createUser();
    await gw.fetch('/api/v1/api-keys', { key: user.key });
    await gw.parts.lastUsed.flush();
    const listed = await json(await gw.fetch('/api/v1/api-keys', { key: user.key }));
    expect(listed.body.data[0].last_used_at).not.toBeNull();
  });
});

describe('HTTP behaviour', () => {
  it('answers unknown routes 404 in the envelope, with x-request-id', async () => {
    const user = await gw.createUser();
    for (const path of ['/api/v1/nope', '/nothing-here', '/api/v2/models']) {
      const res = await json(await gw.fetch(path, { key: user.key }));
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe(404);
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });

  it('echoes a sane incoming x-request-id and replaces an unsafe one', async () => {
    const mine = await gw.fetch('/api/v1/models', { headers: { 'x-request-id': 'abc-123' } });
    expect(mine.headers.get('x-request-id')).toBe('abc-123');
    const unsafe = await gw.fetch('/api/v1/models', { headers: { 'x-request-id': 'a b\tc' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const body = (await unsafe.json()) as any;
    expect(body.error.metadata.request_id).toBe(unsafe.headers.get('x-request-id'));
  });

  it('answers a wrong method 405 and a malformed body 400, both in the envelope', async () => {
    const user = await gw.createUser();
    const wrong = await json(await gw.fetch('/api/v1/models', { method: 'DELETE', key: user.key }));
    expect(wrong.status).toBe(405);
    expect(wrong.body.error.code).toBe(405);
    const malformed = await json(
      await gw.fetch('/api/v1/chat/completions', {
        method: 'POST',
        key: user.key,
        headers: { 'content-type': 'application/json' },
        body: '{"model":',
      }),
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/Malformed JSON/);
    const notJson = await json(
      await gw.fetch('/api/v1/chat/completions', {
        method: 'POST',
        key: user.key,
        headers: { 'content-type': 'text/plain' },
        body: 'hi',
      }),
    );
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.message).toMatch(/Content-Type/);
  });
});

describe('inputs PostgreSQL cannot store', () => {
  it('answers 404 for ids and 400 for names holding a NUL byte, never 500', async () => {
    const user = await gw.createUser();
    const token = await gw.createToken(user.userId);
    for (const [path, init, status] of [
      ['/api/v1/api-keys/%00', { method: 'DELETE' }, 404],
      ['/api/v1/generation?id=%00', {}, 404],
      [
        '/api/v1/api-keys',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'a\u0000b' }) },
        400,
      ],
    ] as const) {
      const res = await gw.fetch(path, { ...init, key: token });
      expect(res.status).toBe(status);
      expect(((await res.json()) as any).error.code).toBe(status);
    }
    expect((await gw.fetch('/api/v1/api-keys/%00', { method: 'DELETE' })).status).toBe(401);
  });
});
