// MODELGATE_GENERATION_RETENTION_DAYS end to end: a gateway started with it prunes the records older than N days, and
// every read built on the running totals (GET /key, GET /api-keys, GET /activity, GET /admin/usage at UTC-midnight
// bounds) answers exactly as before; the ledger keeps its rows; GET /generation of a pruned record is 404, and a
// usage-report bound inside a pruned day is a 400 naming it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { createAdminKey } from '../../src/services/admin-keys.js';
import { settleGenerationBatch } from '../../src/repositories/settlements.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';

const DAY_MS = 86_400_000;
let database: OpenTestDatabase;
let upstream: MockUpstream;
const env = (upstreamUrl: string, extra: Record<string, string> = {}) => ({
  MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
  OPENAI_API_KEY: 'sk-up',
  OPENAI_BASE_URL: `${upstreamUrl}/v1`,
  ...extra,
});

beforeAll(async () => {
  database = await openTestDatabase('pglite', { migrated: true });
  upstream = await new MockUpstream().start();
});
afterAll(async () => {
  await upstream?.close();
  await database?.close();
});

/** The answer without `last_used_at`, which every authenticated read moves on. */
async function read(gw: TestGateway, path: string, key: string): Promise<{ status: number; body: any }> {
  const res = await gw.fetch(path, { key });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text, (name, value) => (name === 'last_used_at' ? undefined : value)) };
}

it('prunes old records at start and every read of the totals stays the same', async () => {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const first = await startTestGateway({ database, env: env(upstream.url) });
  const admin = (await createAdminKey(database.db, { name: 'ops' })).secret;
  const user = await first.createUser();
  await first.grant(user.userId, 1);
  upstream.always({
    kind: 'json',
    body: {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-test-2026',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
    },
  });
  const chat = await first.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key: user.key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: false }),
  });
  expect(chat.status).toBe(200);
  // History: this key's records of 40 and 35 days ago (as an older gateway settled them).
  const old = [40, 40, 35].map((daysAgo, i) => ({
    ...creditsGenerationRecord(user.userId, BigInt(1_000_000 * (i + 1))),
    api_key_id: user.keyId,
    created_at: new Date(today - daysAgo * DAY_MS + 3_600_000),
  }));
  await settleGenerationBatch(
    database.db,
    old.map((record) => ({ record, settle: 'none' as const })),
  );

  const wholeDays = `from=${new Date(today - 60 * DAY_MS).toISOString()}&to=${new Date(today + DAY_MS).toISOString()}`;
  const reads = async (gw: TestGateway) => ({
    key: await read(gw, '/api/v1/key', user.key),
    keys: await read(gw, '/api/v1/api-keys', user.key),
    activity: await read(gw, '/api/v1/activity?days=60', user.key),
    byKey: await read(gw, `/api/v1/admin/usage?${wholeDays}&group_by=key`, admin),
    byDay: await read(gw, `/api/v1/admin/usage?${wholeDays}&group_by=day`, admin),
    ledger: await read(gw, `/api/v1/admin/users/${user.userId}/ledger`, admin),
  });
  const before = await reads(first);
  // Today's request (100 × 2 + 50 × 8 USD per 1M) and the history (0.001 + 0.002 + 0.003).
  expect(before.key.body.data.usage).toBeCloseTo(0.0006 + 0.006, 12);
  expect(before.byDay.body.data).toHaveLength(3);
  expect((await read(first, `/api/v1/generation?id=${old[0].id}`, user.key)).status).toBe(200);
  await first.close();

  // The next start keeps 30 days: the records of 35 and 40 days ago go.
  const second = await startTestGateway({
    database,
    env: env(upstream.url, { MODELGATE_GENERATION_RETENTION_DAYS: '30' }),
  });
  try {
    const deadline = Date.now() + 10_000;
    while (
      (
        await database.db
          .selectFrom('generations')
          .select('id')
          .where(
            'id',
            'in',
            old.map((r) => r.id),
          )
          .execute()
      ).length > 0
    ) {
      if (Date.now() > deadline) throw new Error('the records were not pruned');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await reads(second)).toEqual(before);
    const gone = await read(second, `/api/v1/generation?id=${old[0].id}`, user.key);
    expect(gone.status).toBe(404);
    const inside = await read(
      second,
      `/api/v1/admin/usage?from=${new Date(today - 40 * DAY_MS + 60_000).toISOString()}&to=${new Date(today).toISOString()}`,
      admin,
    );
    expect(inside.status).toBe(400);
    expect(inside.body.error).toMatchObject({
      code: 400,
      metadata: {
        field: 'from',
        reason: 'pruned_history',
        records_kept_since: new Date(today - 30 * DAY_MS).toISOString(),
      },
    });
    expect(
      second.logs.some((line) => line.includes('pruned old generation records') && line.includes('"deleted":3')),
    ).toBe(true);
  } finally {
    await second.close();
  }
});

it('refuses a retention the configuration cannot mean', async () => {
  await expect(
    startTestGateway({ database, env: env(upstream.url, { MODELGATE_GENERATION_RETENTION_DAYS: 'a week' }) }),
  ).rejects.toThrow(/MODELGATE_GENERATION_RETENTION_DAYS/);
});
