// Migrations 0016 and 0023 on a database of an earlier release: keys keep their limits (the key budget) and what they
// spent this period (copied into the key's budget), organizations and members start without a budget, and a
// settlement batch of the earlier release's shape (no budget fields, the key's hold on api_key_spend) still settles,
// its cost counted in the key's budget too.
import { Migrator, sql, type Migration } from 'kysely';
import { expect, it } from 'vitest';
import { resolvePrincipal } from '../../src/auth/authenticate-credential.js';
import { newSecret } from '../../src/auth/secrets.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { keyBudgetId } from '../../src/billing/key-budget.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import { describeEachBackend, openTestDatabase, uniqueId } from '../helpers/databases.js';

describeEachBackend('budgets upgrade (migration 0016)', (backend) => {
  it("keeps every key's limit, reset and period spend; no organization or member has a budget", async () => {
    const database = await openTestDatabase(backend, { migrated: false });
    try {
      const db = database.db;
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async (): Promise<Record<string, Migration>> => Object.fromEntries(migrations) },
      });
      expect((await migrator.migrateTo('0015_organizations')).error).toBeUndefined();
      const id = uniqueId('usr_');
      await sql`insert into users (id, email) values (${id}, ${`${id}@example.com`})`.execute(db);
      const key = newSecret('api_key');
      const keyId = uniqueId('key_');
      await sql`insert into api_keys (id, user_id, name, key_hash, display_prefix, credit_limit_nanos, limit_reset)
        values (${keyId}, ${id}, 'ci', ${key.hash}, ${key.displayPrefix}, 5000, 'daily')`.execute(db);
      await sql`insert into api_key_spend (key_id, period_start, spent_nanos, reserved_nanos)
        values (${keyId}, '2026-03-10T00:00:00Z', 1200, 0)`.execute(db);

      await migrateToLatest(db);

      const principal = await resolvePrincipal(db, key.secret);
      expect(principal.limits).toMatchObject({ creditLimitNanos: 5000n, limitReset: 'daily' });
      expect(principal.budgets).toEqual({ organization: null, member: null });
      const spend = await db.selectFrom('api_key_spend').selectAll().where('key_id', '=', keyId).execute();
      expect(spend).toEqual([expect.objectContaining({ spent_nanos: 1200n, reserved_nanos: 0n })]);
      const budgetId = keyBudgetId(id, keyId);
      expect(await db.selectFrom('budget_spend').selectAll().execute()).toEqual([
        { budget_id: budgetId, period_start: new Date('2026-03-10T00:00:00Z'), spent_nanos: 1200n, leased_nanos: 0n },
      ]);
      // A batch as the earlier release sends it (no budget_holds, no session_hash) settles as before.
      const record = { ...creditsGenerationRecord(id, 300n), api_key_id: keyId, cost_nanos: '300' };
      const batch = [{ ...record, settle: 'credits', reserved_nanos: '0', key_spend_period: '2026-03-10T00:00:00Z' }];
      const fresh = await sql<{ n: number }>`select settle_generations(${JSON.stringify(batch)}::json) as n`.execute(
        db,
      );
      expect(fresh.rows).toEqual([{ n: 1 }]);
      const after = await db.selectFrom('api_key_spend').select('spent_nanos').where('key_id', '=', keyId).execute();
      expect(after).toEqual([{ spent_nanos: 1500n }]);
      const budget = await db.selectFrom('budget_spend').select(['budget_id', 'spent_nanos']).execute();
      expect(budget).toEqual([{ budget_id: budgetId, spent_nanos: 1500n }]);
    } finally {
      await database.close();
    }
  });
});
