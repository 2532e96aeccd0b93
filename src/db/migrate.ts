import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { installFunctions } from './functions/install-functions.js';
import { migrations } from './migrations/index.js';

// An explicit list instead of Kysely's FileMigrationProvider: no directory scanning, so it works the
// same from src/ under tsx and from compiled dist/, and bundlers see every migration as an import.
const provider: MigrationProvider = {
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(migrations);
  },
};

/**
 * Applies pending migrations, then the living definitions of the SQL functions (db/functions/). Safe on every start
 * and from several processes at once: each step holds an advisory lock (Kysely's for the migrations), so one runner
 * applies and the others find nothing left to do.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const which = failed === undefined ? 'database migration' : `database migration ${failed}`;
    throw new Error(`${which} failed: ${describe(error)}`, { cause: error });
  }
  await installFunctions(db);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Migrations of this release that the database has not applied, oldest first; all of them when it has none. Names
 * the database has and this release does not (a newer release migrated ahead) are not counted: migrations only add.
 */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  let applied: Set<string>;
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
    applied = new Set(rows.map((row) => row.name));
  } catch (err) {
    // undefined_table: nothing was ever migrated. Anything else (connection lost) is the caller's to report.
    if ((err as { code?: unknown }).code !== '42P01') throw err;
    applied = new Set();
  }
  return migrations.map(([name]) => name).filter((name) => !applied.has(name));
}
