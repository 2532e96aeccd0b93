// Runs one db test suite against every backend: embedded PGlite (always) and PostgreSQL (when a
// server answers; required when CI=true). Each test FILE gets one database per backend, opened in
// beforeAll and closed in afterAll, never one per test: tests inside a file share it and must use
// their own ids (see uniqueId).
import { randomBytes } from 'node:crypto';
import type { PGliteInterface } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { insertApiKey } from '../../src/repositories/api-keys.js';
import { migrationSourcesKey, pgliteSnapshot } from './pglite-snapshots.js';
import { createScratchDatabase, probePostgres, sharedTemplateDatabase, testDatabaseUrl } from './postgres-server.js';

export type Backend = 'pglite' | 'postgres';

export interface DatabaseContext {
  readonly backend: Backend;
  /** The file's migrated database; only valid inside tests and hooks. */
  db(): Db;
}

export interface OpenTestDatabase {
  db: Db;
  /** PostgreSQL only: the scratch database URL, for opening more connections to the same data. */
  url?: string;
  /** PGlite only: the instance behind `db` (notifications). */
  pglite?: PGliteInterface;
  close(): Promise<void>;
}

// Top-level await: whether PostgreSQL runs must be known while vitest collects the suites.
const postgres = await probePostgres(testDatabaseUrl());
const requirePostgres = process.env.CI === 'true';
let skipNoticeShown = false;

/** Registers `fn`'s tests once per backend, each with its own migrated database for this file. */
export function describeEachDatabase(name: string, fn: (ctx: DatabaseContext) => void): void {
  describeEachBackend(name, (backend) => fn(useDatabase(backend)));
}

/** Registers `fn`'s tests once per backend, without opening anything (for tests that open their own). */
export function describeEachBackend(name: string, fn: (backend: Backend) => void): void {
  describe(`${name} [pglite]`, () => fn('pglite'));
  describeWithPostgres(`${name} [postgres]`, () => fn('postgres'));
}

/** A suite that needs PostgreSQL: runs when a server answers, fails when CI=true, else is skipped loudly. */
export function describeWithPostgres(name: string, fn: () => void): void {
  if (postgres.available) {
    describe(name, fn);
  } else if (requirePostgres) {
    describe(name, () => {
      it('needs PostgreSQL because CI=true', () => {
        throw new Error(`PostgreSQL is required when CI=true but ${postgres.url} did not answer: ${postgres.reason}`);
      });
    });
  } else {
    if (!skipNoticeShown) {
      skipNoticeShown = true;
      console.warn(
        `[db tests] SKIPPING the PostgreSQL variants: ${postgres.url} did not answer (${postgres.reason}). ` +
          'Run scripts/ensure-postgres.sh or set TEST_DATABASE_URL to run them.',
      );
    }
    // Collected but never run, so the report lists what was skipped.
    describe.skip(`${name} (no PostgreSQL server)`, fn);
  }
}

function useDatabase(backend: Backend): DatabaseContext {
  let opened: OpenTestDatabase | undefined;
  beforeAll(async () => {
    opened = await openTestDatabase(backend, { migrated: true });
  });
  afterAll(async () => {
    await opened?.close();
    opened = undefined;
  });
  return {
    backend,
    db() {
      if (opened === undefined) throw new Error(`${backend} test database is not open (used outside a test?)`);
      return opened.db;
    },
  };
}

/**
 * A fresh database of its own, migrated or empty: PostgreSQL → a new scratch database (dropped on
 * close), migrated ones copied from a template migrated once; PGlite → a new in-memory instance started
 * from a cached snapshot.
 */
export async function openTestDatabase(backend: Backend, options: { migrated: boolean }): Promise<OpenTestDatabase> {
  if (backend === 'pglite') {
    const snapshot = await pgliteSnapshot(options.migrated ? 'migrated' : 'empty');
    const { db, close, pglite } = await openDatabase({ inMemory: true, pgliteSnapshot: snapshot });
    if (options.migrated) await migrateToLatest(db);
    return { db, close, pglite };
  }
  if (!postgres.available) throw new Error(`PostgreSQL is not available: ${postgres.reason}`);
  const scratch = await createScratchDatabase(postgres.url, options.migrated ? await migratedTemplate() : undefined);
  const { db, close } = await openDatabase({ databaseUrl: scratch.url, maxConnections: 10 });
  return {
    db,
    url: scratch.url,
    async close() {
      await close();
      await scratch.drop();
    },
  };
}

let template: Promise<string> | undefined;

/**
 * A PostgreSQL database with every migration and living function applied, kept on the server and named after their
 * sources (as the PGlite snapshot is): a migrated scratch database is a copy of it (`create database ... template`),
 * which costs a fraction of migrating one. A change to a migration or function names a new one.
 */
export function migratedTemplate(): Promise<string> {
  template ??= migrationSourcesKey().then((key) =>
    sharedTemplateDatabase(postgres.url, `mg_template_${key}`, async (url) => {
      const { db, close } = await openDatabase({ databaseUrl: url, maxConnections: 1 });
      try {
        await migrateToLatest(db);
      } finally {
        await close();
      }
    }),
  );
  return template;
}

/** Whether the PostgreSQL variants run in this process (probed once, at import). */
export function postgresAvailability(): { available: boolean; url: string } {
  return { available: postgres.available, url: postgres.url };
}

/** Ids that cannot collide between tests sharing one database. */
export function uniqueId(prefix: string): string {
  return `${prefix}${randomBytes(8).toString('hex')}`;
}

/** A new user with unique id and email, for tests that need an owner row. */
export async function insertTestUser(db: Db): Promise<{ id: string; email: string }> {
  const id = uniqueId('usr_');
  return db
    .insertInto('users')
    .values({ id, email: `${id}@example.com` })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
}

/** A key row of `userId` with a unique (fake) hash, for data-layer tests of keys. */
export function insertTestApiKey(db: Db, userId: string, createdAt?: Date) {
  return insertApiKey(db, {
    id: uniqueId('key_'),
    user_id: userId,
    member_user_id: userId,
    name: 'test key',
    key_hash: uniqueId('hash'),
    display_prefix: 'mg-v1-ab12',
    ...(createdAt ? { created_at: createdAt } : {}),
  });
}
