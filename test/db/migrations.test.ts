import { Migrator, NO_MIGRATIONS, sql, type Migration } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { describeEachBackend, openTestDatabase } from '../helpers/databases.js';

const TABLES = [
  'account_tokens',
  'admin_keys',
  'api_key_spend',
  'api_key_spend_holds',
  'api_keys',
  'audit_log',
  'budget_leases',
  'budget_spend',
  'credit_accounts',
  'credit_leases',
  'credit_ledger',
  'generation_retention',
  'generations',
  'memberships',
  'organization_aliases',
  'organization_invitations',
  'organizations',
  'pass_usage',
  'presets',
  'provider_keys',
  'sessions',
  'stored_responses',
  'subscriptions',
  'usage_daily',
  'usage_key_totals',
  'users',
  'webhook_attempts',
  'webhook_budget_marks',
  'webhook_deliveries',
  'webhook_endpoints',
  'webhook_events',
];

async function appliedMigrations(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}

async function appTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_name not like 'kysely%' order by table_name`.execute(db);
  return rows.map((r) => r.table_name);
}

function explicitMigrator(db: Db): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async (): Promise<Record<string, Migration>> => Object.fromEntries(migrations) },
  });
}

describe('migration list', () => {
  it('is ordered, uniquely named and numbered', () => {
    const names = migrations.map(([name]) => name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^\d{4}_[a-z0-9_]+$/);
  });
});

describeEachBackend('migrations', (backend) => {
  it('apply from empty, concurrently, and again as a no-op', async () => {
    // Empty database (PGlite: a snapshot taken right after initdb, before any migration).
    const fresh = await openTestDatabase(backend, { migrated: false });
    // PostgreSQL: a second pool stands in for a second gateway process starting at the same moment.
    const second =
      fresh.url === undefined ? undefined : await openDatabase({ databaseUrl: fresh.url, maxConnections: 2 });
    try {
      const otherDb = second?.db ?? fresh.db;
      await Promise.all([migrateToLatest(fresh.db), migrateToLatest(otherDb), migrateToLatest(fresh.db)]);
      expect(await appliedMigrations(fresh.db)).toEqual(migrations.map(([name]) => name));
      expect(await appTables(fresh.db)).toEqual(TABLES);

      await migrateToLatest(fresh.db);
      expect(await appliedMigrations(fresh.db)).toEqual(migrations.map(([name]) => name));

      // Every migration can be undone and redone (down() is kept working, even though frozen).
      const down = await explicitMigrator(fresh.db).migrateTo(NO_MIGRATIONS);
      expect(down.error).toBeUndefined();
      expect(await appTables(fresh.db)).toEqual([]);
      await migrateToLatest(fresh.db);
      expect(await appTables(fresh.db)).toEqual(TABLES);
    } finally {
      await second?.close();
      await fresh.close();
    }
  });
});
