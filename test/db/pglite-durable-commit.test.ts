// The embedded database's commits are on disk when they return: a data folder's PostgreSQL runs with fsync on, its WAL
// flushed with fsync(), and PGlite's file system (NODEFS, which has none of its own) syncs the real file when asked.
// Without it a commit reached the kernel's page cache only: safe from a killed process, not from a power cut.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openPglite } from '../../src/db/dialects/pglite-instance.js';

const work = mkdtempSync(path.join(tmpdir(), 'modelgate-pglite-durable-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('syncs the WAL to disk at every commit of a data folder', async () => {
  const pglite = await openPglite({ dataDir: path.join(work, 'data') });
  try {
    expect((await pglite.query<{ fsync: string }>('show fsync')).rows).toEqual([{ fsync: 'on' }]);
    expect((await pglite.query<{ wal_sync_method: string }>('show wal_sync_method')).rows).toEqual([
      { wal_sync_method: 'fsync' },
    ]);
    await pglite.exec('create table durable_probe (n int)');
    // Count the syncs PostgreSQL asks the file system for while committing.
    const nodefs = (
      pglite.Module as unknown as {
        FS: { filesystems: { NODEFS: { stream_ops: { fsync?: (stream: unknown) => number } } } };
      }
    ).FS.filesystems.NODEFS;
    const sync = nodefs.stream_ops.fsync;
    expect(sync).toBeTypeOf('function');
    let syncs = 0;
    nodefs.stream_ops.fsync = (stream) => {
      syncs += 1;
      return sync!(stream);
    };
    for (let n = 0; n < 3; n++) await pglite.query('insert into durable_probe values ($1)', [n]);
    expect(syncs).toBeGreaterThanOrEqual(3);
  } finally {
    await pglite.close();
  }
  // A new data folder's first start syncs every file it writes: seconds on a busy disk.
}, 90_000);
