import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { INT8_OID, parseInt8 } from '../type-parsers.js';

export interface PgliteInstanceOptions {
  /** Persist in this folder (created if missing). Without it the database lives in memory. */
  dataDir?: string;
  /** Start an in-memory instance from a `dumpDataDir()` tarball instead of running initdb (seconds faster). */
  snapshot?: Blob;
}

/** Starts PGlite with the same value parsing as the `pg` pool (int8 → bigint, timestamptz → Date). */
export async function openPglite(options: PgliteInstanceOptions): Promise<PGlite> {
  if (options.dataDir !== undefined) await mkdir(options.dataDir, { recursive: true });
  return PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.snapshot,
    parsers: { [INT8_OID]: parseInt8 },
  });
}
