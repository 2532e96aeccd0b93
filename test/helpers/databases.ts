// Runs one db test suite against every backend: embedded PGlite (always) and PostgreSQL (when a
// server answers; required when CI=true). Each test FILE gets one database per backend, opened in
// beforeAll and closed in afterAll, never one per test: tests inside a file share it and must use
// their own ids (see uniqueId).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely } from 'kysely';
import type { PGliteInterface } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { openPglite } from '../../src/db/dialects/pglite-instance.js';
import { PGliteDialect } from '../../src/db/dialects/pglite-dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { insertApiKey } from '../../src/repositories/api-keys.js';
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

// --- PGlite snapshot cache ---------------------------------------------------------------------
// initdb inside PGlite costs 4+ s of CPU per instance; loading a dumped data dir costs well under 1 s.
// Two dumps are cached in .test-data/ (git-ignored): `empty` (right after initdb, keyed by the PGlite
// version) and `migrated` (empty + every migration, keyed also by the migration sources). On a cache
// miss one worker builds a dump (lock file) while the others wait for it.

type SnapshotKind = 'empty' | 'migrated';
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE_DIR = join(REPO_ROOT, '.test-data');
const LOCK_STALE_MS = 120_000;
const snapshots = new Map<SnapshotKind, Promise<Blob>>();

function pgliteSnapshot(kind: SnapshotKind): Promise<Blob> {
  let snapshot = snapshots.get(kind);
  if (snapshot === undefined) {
    snapshot = loadOrBuildSnapshot(kind);
    snapshots.set(kind, snapshot);
  }
  return snapshot;
}

async function snapshotKey(kind: SnapshotKind): Promise<string> {
  const hash = createHash('sha256').update(`snapshot-v1-${kind}`);
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  hash.update(await readFile(join(pgliteEntry, '..', '..', 'package.json')));
  if (kind === 'migrated') hash.update(await migrationSourcesKey());
  return hash.digest('hex').slice(0, 16);
}

/** A digest of what a migrated database is made of: the migration list and the sources of migrations and functions. */
async function migrationSourcesKey(): Promise<string> {
  const hash = createHash('sha256');
  const migrationsDir = join(REPO_ROOT, 'src', 'db', 'migrations');
  for (const [name] of migrations) hash.update(name);
  for (const file of (await readdir(migrationsDir)).sort()) hash.update(await readFile(join(migrationsDir, file)));
  const functionsDir = join(REPO_ROOT, 'src', 'db', 'functions');
  for (const file of (await readdir(functionsDir)).sort()) hash.update(await readFile(join(functionsDir, file)));
  return hash.digest('hex').slice(0, 16);
}

async function loadOrBuildSnapshot(kind: SnapshotKind): Promise<Blob> {
  const path = join(CACHE_DIR, `pglite-${kind}-${await snapshotKey(kind)}.tar`);
  const lockPath = `${path}.lock`;
  await mkdir(CACHE_DIR, { recursive: true });
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    const cached = await readFile(path).catch(() => undefined);
    if (cached !== undefined) return new Blob([cached]);
    const lock = await open(lockPath, 'wx').catch(() => undefined);
    if (lock === undefined) {
      // Another worker is building it; take over only if that worker evidently died.
      const age = Date.now() - ((await stat(lockPath).catch(() => undefined))?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS || Date.now() > deadline) await unlink(lockPath).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      const snapshot = await buildSnapshot(kind);
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, Buffer.from(await snapshot.arrayBuffer()));
      await rename(temporary, path); // atomic: readers never see a half-written file
      await removeStaleSnapshots(kind, path);
      return snapshot;
    } finally {
      await lock.close();
      await unlink(lockPath).catch(() => {});
    }
  }
}

async function buildSnapshot(kind: SnapshotKind): Promise<Blob> {
  const pglite = await openPglite({ snapshot: kind === 'migrated' ? await pgliteSnapshot('empty') : undefined });
  const db = new Kysely<unknown>({ dialect: new PGliteDialect({ pglite }) });
  try {
    if (kind === 'migrated') await migrateToLatest(db);
    return await pglite.dumpDataDir('none');
  } finally {
    await db.destroy();
  }
}

async function removeStaleSnapshots(kind: SnapshotKind, keep: string): Promise<void> {
  const pattern = new RegExp(`^pglite-${kind}-[0-9a-f]{16}\\.tar$`);
  for (const file of await readdir(CACHE_DIR)) {
    const path = join(CACHE_DIR, file);
    if (path !== keep && pattern.test(file)) await unlink(path).catch(() => {});
  }
}
