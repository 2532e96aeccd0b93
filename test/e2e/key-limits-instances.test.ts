// Per-key limits across gateway instances: two gateways on one PostgreSQL database, as behind a load balancer.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { listLedger } from '../../src/repositories/credits.js';
import { createAdminKey, deleteAdminKey } from '../../src/services/admin-keys.js';

const WAIT = { timeout: 5000, interval: 20 };
const hello = [{ role: 'user', content: 'hi' }];
const reply = {
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

describeWithPostgres('key limits across instances [postgres]', () => {
  let database: OpenTestDatabase;
  let upstream: MockUpstream;
  let a: TestGateway;
  let b: TestGateway;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    upstream.always(reply);
    database = await openTestDatabase('postgres', { migrated: true });
    const env = {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    };
    a = await startTestGateway({ database, env });
    b = await startTestGateway({ database, env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
    await upstream?.close();
  });

  const chat = (gw: TestGateway, key: string) =>
    gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-test', messages: hello, stream: false, max_tokens: 10 }),
    });

  /** Made with the owner's account token: an API key may not create keys. */
  async function limitedKey(owner: { userId: string }, body: Record<string, unknown>) {
    const res = await a.fetch('/api/v1/api-keys', {
      method: 'POST',
      key: await a.createToken(owner.userId),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as any;
  }

  it('keeps 20 concurrent requests split over two instances within a 0.001 USD limit', async () => {
    const owner = await a.createUser();
    await a.grant(owner.userId, 10);
    const key = await limitedKey(owner, { limit: 0.001 });
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => chat(i % 2 === 0 ? a : b, key.key)));
    await Promise.all(responses.map((r) => r.text()));
    await a.settled();
    await b.settled();
    const ok = responses.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThan(0);
    expect(responses.filter((r) => r.status === 402).length).toBe(20 - ok);
    const debits = (await listLedger(database.db, owner.userId, 100)).filter((row) => row.kind === 'debit');
    expect(debits).toHaveLength(ok);
    expect(debits.reduce((sum, row) => sum - row.amount_nanos, 0n)).toBeLessThanOrEqual(1_000_000n);
  });

  it('refuses a key disabled through one instance on the other instance, which had it cached', async () => {
    const owner = await a.createUser();
    const key = await limitedKey(owner, { name: 'to disable' });
    expect((await b.fetch('/api/v1/key', { key: key.key })).status).toBe(200);
    expect(b.parts.credentials.size).toBeGreaterThan(0);
    const patched = await a.fetch(`/api/v1/api-keys/${key.key_id}`, {
      method: 'PATCH',
      key: await a.createToken(owner.userId),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(patched.status).toBe(200);
    // The change reaches b through the database notification (asynchronous, hence the wait).
    await vi.waitFor(async () => {
      const res = await b.fetch('/api/v1/key', { key: key.key });
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).error.metadata.reason).toBe('key_disabled');
    }, WAIT);
  });

  it('refuses an admin key deleted elsewhere (the CLI) on an instance that had it cached', async () => {
    const { row, secret } = await createAdminKey(database.db, { name: 'ops' });
    expect((await b.fetch('/api/v1/admin/users', { key: secret })).status).toBe(200);
    // As `modelgate admin-keys delete` does: no cache of its own to invalidate, the row's trigger tells the gateways.
    expect(await deleteAdminKey(database.db, undefined, { keyId: row.id, now: new Date() })).toBe(true);
    await vi.waitFor(
      async () => expect((await b.fetch('/api/v1/admin/users', { key: secret })).status).toBe(401),
      WAIT,
    );
  });
});
