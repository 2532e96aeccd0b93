// The PGlite snapshot cache, without vitest, so that the compatibility matrix (make compatibility) uses it too.
// initdb inside PGlite costs 4+ s of CPU per instance; loading a dumped data dir costs well under 1 s.
// Two dumps are cached in .test-data/ (git-ignored): `empty` (right after initdb, keyed by the PGlite
// version) and `migrated` (empty + every migration, keyed also by the migration sources). On a cache
// miss one worker builds a dump (lock file) while the others wait for it.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Kysely } from 'kysely';
import { openPglite } from '../../src/db/dialects/pglite-instance.js';
import { PGliteDialect } from '../../src/db/dialects/pglite-dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';

export type SnapshotKind = 'empty' | 'migrated';
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE_DIR = join(REPO_ROOT, '.test-data');
const LOCK_STALE_MS = 120_000;
const snapshots = new Map<SnapshotKind, Promise<Blob>>();

export function pgliteSnapshot(kind: SnapshotKind): Promise<Blob> {
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
export async function migrationSourcesKey(): Promise<string> {
  const hash = createHash('sha256');
  const migrationsDir = join(REPO_ROOT, 'src', 'db', 'migrations');
  for (const [name] of migrations) hash.update(name);
  for (const file of (await readdir(migrationsDir)).sort()) hash.update(await readFile(join(migrationsDir, file)));
  const functionsDir = join(REPO_ROOT, 'src', 'db', 'functions');
  for (const file of (await readdir(functionsDir)).sort()) hash.update(await readFile(join(functionsDir, file)));
  return hash.digest('hex').slice(0, 16);
}

async function loadOrBuildSnapshot(kind: SnapshotKind): Promise<Blob> {
  const path = await snapshotPath(kind);
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

function snapshotPath(kind: SnapshotKind): Promise<string> {
  return snapshotKey(kind).then((key) => join(CACHE_DIR, `pglite-${kind}-${key}.tar`));
}

/**
 * Fills the new folder `dataDir` with the migrated snapshot: the embedded database as a first start leaves it (initdb,
 * every migration), without that start's initdb, which costs seconds more on a data folder than in memory.
 */
export async function seedMigratedDataFolder(dataDir: string): Promise<void> {
  await pgliteSnapshot('migrated');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await promisify(execFile)('tar', ['-xf', await snapshotPath('migrated'), '-C', dataDir]);
}
