import { PGlite } from '@electric-sql/pglite';
import { INT8_OID, parseInt8 } from '../type-parsers.js';
import { makeFolderPrivate, restrictUmask } from '../data-folder/private-folder.js';
import { durableStartParams, syncNodefsToDisk } from './pglite-durable-commit.js';

export interface PgliteInstanceOptions {
  /** Persist in this folder (created if missing). Without it the database lives in memory. */
  dataDir?: string;
  /** Start an in-memory instance from a `dumpDataDir()` tarball instead of running initdb (seconds faster). */
  snapshot?: Blob;
}

/**
 * Starts PGlite with the same value parsing as the `pg` pool (int8 → bigint, timestamptz → Date). A data folder is
 * made private to this user before PGlite opens it and again after (the files of a new database; private-folder.ts),
 * and its commits are on disk when they return (pglite-durable-commit.ts).
 */
export async function openPglite(options: PgliteInstanceOptions): Promise<PGlite> {
  if (options.dataDir !== undefined) {
    restrictUmask();
    await makeFolderPrivate(options.dataDir);
  }
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.snapshot,
    parsers: { [INT8_OID]: parseInt8 },
    ...(options.dataDir !== undefined ? { startParams: durableStartParams() } : {}),
  });
  if (options.dataDir !== undefined) {
    syncNodefsToDisk(pglite);
    await makeFolderPrivate(options.dataDir);
  }
  return pglite;
}
