// pendingMigrations (what readiness reports): every migration on a database never migrated (no migration table
// yet), none once migrated, and a migration applied by a newer release is not held against this one.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeEachBackend, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { migrateToLatest, pendingMigrations } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';

describeEachBackend('pendingMigrations', (backend) => {
  let database: OpenTestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(backend, { migrated: false });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('lists every migration before the first run, none after, and ignores names it does not know', async () => {
    expect(await pendingMigrations(database.db)).toEqual(migrations.map(([name]) => name));
    await migrateToLatest(database.db);
    expect(await pendingMigrations(database.db)).toEqual([]);
    await sql`insert into kysely_migration (name, timestamp) values ('9999_from_a_newer_release', '2030-01-01T00:00:00.000Z')`.execute(
      database.db,
    );
    expect(await pendingMigrations(database.db)).toEqual([]);
  });
});
