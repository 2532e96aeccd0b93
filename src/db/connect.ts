import { Kysely, sql } from 'kysely';
import type { PGliteInterface } from '@electric-sql/pglite';
import type { Db } from './database.js';
import { openPglite } from './dialects/pglite-instance.js';
import { PGliteDialect } from './dialects/pglite-dialect.js';
import { createPostgresDialect, quoteIdent } from './dialects/postgres-dialect.js';

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when set, `pg` is used and the PGlite options are ignored. */
  databaseUrl?: string;
  /** Embedded PGlite persisted in this folder (created if missing). */
  dataDir?: string;
  /** Embedded PGlite in memory (tests, throwaway runs). */
  inMemory?: boolean;
  /** Schema to work in: created if missing and made the only entry of search_path. */
  schema?: string;
  /** `pg` pool size (PostgreSQL only). Default 10. */
  maxConnections?: number;
  /** In-memory PGlite only: start from a `dumpDataDir()` tarball instead of an empty cluster. */
  pgliteSnapshot?: Blob;
  /** Errors of idle pooled `pg` clients; default: a process warning. */
  onIdleClientError?: (error: Error) => void;
}

export interface OpenedDatabase {
  db: Db;
  close(): Promise<void>;
  dialect: 'postgres' | 'pglite';
  /** The embedded instance (PGlite only), for what Kysely does not cover: notifications. */
  pglite?: PGliteInterface;
}

/**
 * Opens PostgreSQL when a URL is given, otherwise embedded PGlite. Both return int8 as `bigint`,
 * int4 as `number` and timestamptz as `Date`, so callers never branch on the backend. Does not
 * migrate: call `migrateToLatest(db)` next.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  const opened =
    options.databaseUrl !== undefined ? openPostgres(options.databaseUrl, options) : await openEmbedded(options);
  if (options.schema !== undefined) {
    try {
      await createSchemaIfMissing(opened.db, options.schema);
    } catch (error) {
      await opened.close();
      throw error;
    }
  }
  return opened;
}

function openPostgres(databaseUrl: string, options: OpenDatabaseOptions): OpenedDatabase {
  const db: Db = new Kysely({
    dialect: createPostgresDialect({
      databaseUrl,
      schema: options.schema,
      maxConnections: options.maxConnections,
      onIdleClientError: options.onIdleClientError,
    }),
  });
  return { db, close: () => db.destroy(), dialect: 'postgres' };
}

async function openEmbedded(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  if (options.dataDir === undefined && options.inMemory !== true) {
    throw new Error('openDatabase needs databaseUrl, dataDir or inMemory: true');
  }
  if (options.pgliteSnapshot !== undefined && options.dataDir !== undefined) {
    throw new Error('pgliteSnapshot only applies to an in-memory PGlite (no dataDir)');
  }
  const pglite = await openPglite({ dataDir: options.dataDir, snapshot: options.pgliteSnapshot });
  const db: Db = new Kysely({ dialect: new PGliteDialect({ pglite }) });
  if (options.schema !== undefined) {
    // One session for the whole process, so setting it once covers every later query.
    await sql.raw(`set search_path to ${quoteIdent(options.schema)}`).execute(db);
  }
  return { db, close: () => db.destroy(), dialect: 'pglite', pglite };
}

async function createSchemaIfMissing(db: Db, schema: string): Promise<void> {
  try {
    await sql.raw(`create schema if not exists ${quoteIdent(schema)}`).execute(db);
  } catch (error) {
    // Two processes creating it at once can both pass "if not exists"; the loser's error is harmless.
    if (!isDuplicateSchemaError(error)) throw error;
  }
}

function isDuplicateSchemaError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === '42P06';
}
