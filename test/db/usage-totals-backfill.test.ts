// Migration 0012 on a database that already holds generation records: the totals it creates start at exactly the
// sums of those records, and records settled afterwards are added once.
import { Migrator, sql, type Migration } from 'kysely';
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { settleGenerationBatch } from '../../src/repositories/settlements.js';
import { describeEachBackend, insertTestUser, openTestDatabase, uniqueId } from '../helpers/databases.js';

function record(userId: string, keyId: string | null, at: string, cost: bigint): NewGeneration {
  return {
    id: uniqueId('gen-'),
    user_id: userId,
    api_key_id: keyId,
    access_mode: 'credits',
    model: 'openai/x',
    provider: 'openai',
    upstream_model: 'x',
    upstream_id: null,
    streamed: false,
    finish_reason: 'stop',
    status: 'success',
    http_status: 200,
    error_code: null,
    error_message: null,
    prompt_tokens: 3,
    completion_tokens: 2,
    cost_nanos: cost,
    reference_cost_nanos: null,
    latency_ms: 1,
    time_to_first_token_ms: null,
    app_title: null,
    app_referer: null,
    task_id: null,
    created_at: new Date(at),
  };
}

async function totalsOf(db: Db) {
  const daily = await db
    .selectFrom('usage_daily')
    .select([
      'user_id',
      'api_key_id',
      'requests',
      'prompt_tokens',
      'cost_nanos',
      sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'),
    ])
    .orderBy('day')
    .orderBy('api_key_id')
    .execute();
  const keys = await db.selectFrom('usage_key_totals').selectAll().orderBy('api_key_id').execute();
  return { daily, keys };
}

describeEachBackend('usage totals backfill', (backend) => {
  it('starts the totals at the sums of the records already there', async () => {
    const database = await openTestDatabase(backend, { migrated: false });
    try {
      const db = database.db;
      const before = migrations.findIndex(([name]) => name === '0012_usage_totals');
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async (): Promise<Record<string, Migration>> => Object.fromEntries(migrations) },
      });
      expect((await migrator.migrateTo(migrations[before - 1][0])).error).toBeUndefined();

      const user = (await insertTestUser(db)).id;
      const key = uniqueId('key_');
      await settleGenerationBatch(
        db,
        [
          record(user, key, '2026-03-01T23:59:59.999Z', 5n),
          record(user, key, '2026-03-02T00:00:00Z', 7n),
          record(user, null, '2026-03-02T10:00:00Z', 11n),
          record(user, key, '2026-03-02T11:00:00Z', 13n),
        ].map((r) => ({ record: r, settle: 'none' as const })),
      );
      await migrateToLatest(db);

      expect(await totalsOf(db)).toEqual({
        daily: [
          { user_id: user, api_key_id: key, requests: 1n, prompt_tokens: 3n, cost_nanos: 5n, day: '2026-03-01' },
          { user_id: user, api_key_id: '', requests: 1n, prompt_tokens: 3n, cost_nanos: 11n, day: '2026-03-02' },
          { user_id: user, api_key_id: key, requests: 2n, prompt_tokens: 6n, cost_nanos: 20n, day: '2026-03-02' },
        ],
        keys: [{ api_key_id: key, requests: 3n, cost_nanos: 25n }],
      });

      // After the migration, the trigger adds new records (a repeated one once).
      const later = record(user, key, '2026-03-02T12:00:00Z', 100n);
      await settleGenerationBatch(db, [
        { record: later, settle: 'none' },
        { record: later, settle: 'none' },
      ]);
      expect((await totalsOf(db)).keys).toEqual([{ api_key_id: key, requests: 4n, cost_nanos: 125n }]);
    } finally {
      await database.close();
    }
  });
});
