// MODELGATE_MAX_KEYS_PER_ACCOUNT end to end: past the cap, creating a key is 409 too_many_keys with a clear message
// through the API (management key and account token), the operator API and the CLI; a deleted key frees its place,
// and a concurrent burst of creations over HTTP lets exactly the free places through, on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { describeEachBackend } from '../helpers/databases.js';
import { useCliDatabase } from '../helpers/cli-database.js';
import { createAdminKey } from '../../src/services/admin-keys.js';

describeEachBackend('keys per account', (backend) => {
  let gw: TestGateway;
  let admin: string;

  beforeAll(async () => {
    gw = await startTestGateway({
      backend,
      env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json', MODELGATE_MAX_KEYS_PER_ACCOUNT: '4' },
    });
    admin = (await createAdminKey(gw.db, { name: 'ops' })).secret;
  });
  afterAll(async () => {
    await gw?.close();
  });

  const post = (path: string, credential: string, body: Record<string, unknown> = {}) =>
    gw.fetch(`/api/v1${path}`, {
      method: 'POST',
      key: credential,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  async function expectTooMany(res: Response) {
    const body: any = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(409);
    expect(body.error).toMatchObject({ code: 409, metadata: { reason: 'too_many_keys', max_keys: 4 } });
    expect(body.error.message).toBe(
      'Too many API keys: an account may hold 4 active keys (management keys included); delete one before creating another',
    );
  }

  it('answers 409 past the cap to the management key, the account token and the operator; a deleted key frees its place', async () => {
    // One key from the start; with a management key and two inference keys the account holds 4.
    const user = await gw.createUser();
    const token = await gw.createToken(user.userId);
    const management = (await (await post('/api-keys', token, { kind: 'management' })).json()) as any;
    const keys = [];
    for (let i = 0; i < 2; i++) {
      const res = await post('/api-keys', management.key, { name: `k${i}` });
      expect(res.status).toBe(201);
      keys.push(((await res.json()) as any).key_id);
    }
    await expectTooMany(await post('/api-keys', management.key, { name: 'one too many' }));
    await expectTooMany(await post('/api-keys', token, { name: 'one too many' }));
    await expectTooMany(await post(`/admin/users/${user.userId}/keys`, admin, { name: 'one too many' }));
    const listed = (await (await gw.fetch('/api/v1/api-keys', { key: token })).json()) as any;
    expect(listed.data).toHaveLength(4);

    const deleted = await gw.fetch(`/api/v1/api-keys/${keys[0]}`, { method: 'DELETE', key: token });
    expect(deleted.status).toBe(200);
    expect((await post('/api-keys', management.key, { name: 'in its place' })).status).toBe(201);
    await expectTooMany(await post('/api-keys', management.key));
  });

  it('lets exactly the free places through a concurrent burst of creations', async () => {
    const user = await gw.createUser();
    const token = await gw.createToken(user.userId);
    const statuses = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const res = await post(i % 2 ? '/api-keys' : `/admin/users/${user.userId}/keys`, i % 2 ? token : admin, {
          name: `burst-${i}`,
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(13);
    const listed = (await (await gw.fetch('/api/v1/api-keys', { key: token })).json()) as any;
    expect(listed.data).toHaveLength(4);
  });
});

describe('keys per account, from the CLI', () => {
  // The CLI's own database: PostgreSQL when a server answers, else an embedded data folder.
  const cli = useCliDatabase({ MODELGATE_MAX_KEYS_PER_ACCOUNT: '2' });

  it('fails with a clear message (exit 1) past the cap, also as JSON', async () => {
    expect((await cli('users', 'create', '--email', 'capped@example.com')).code).toBe(0);
    for (let i = 0; i < 2; i++) expect((await cli('keys', 'create', '--email', 'capped@example.com')).code).toBe(0);
    const refused = await cli('keys', 'create', '--email', 'capped@example.com', '--manage');
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      'capped@example.com: Too many API keys: an account may hold 2 active keys (management keys included); delete one before creating another (MODELGATE_MAX_KEYS_PER_ACCOUNT)',
    );
    const json = await cli('keys', 'create', '--email', 'capped@example.com', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.err)).toMatchObject({ error: { type: 'failed', exit_code: 1 } });
    expect(json.out).toBe('');
  });
});
