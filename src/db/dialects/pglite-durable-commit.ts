// A commit of the embedded database is on disk when it returns. PGlite keeps a data folder through Emscripten's
// NODEFS, which writes through to the files but implements no fsync, and starts PostgreSQL with -F (fsync off): a
// committed transaction then survives the process (a SIGKILL: the kernel holds the written pages) but not the machine
// (a power cut or a kernel crash can lose the last commits or leave a torn page). So a data folder's PostgreSQL runs
// with fsync on and the WAL flushed by fsync() (NODEFS has no fdatasync either: PGlite's fdatasync does nothing), and
// NODEFS gets an fsync that calls the kernel's.
import { fsyncSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';

/** PGlite's start parameters with fsync on, the WAL synced through fsync(). */
export function durableStartParams(): string[] {
  return [...PGlite.defaultStartParams.filter((param) => param !== '-F'), '-c', 'wal_sync_method=fsync'];
}

/** WASI errno values the C library expects back from fd_sync. */
const WASI_EINVAL = 28;
const WASI_EIO = 29;

interface NodefsStream {
  nfd?: number;
}

/**
 * Gives NODEFS (shared by every file of the instance) an fsync: the file's real descriptor, synced. A failure is
 * returned as errno, never thrown through the WebAssembly call; PostgreSQL then decides (a WAL flush that fails is a
 * PANIC there, as on any server; a directory that cannot be synced, EINVAL, is ignored).
 */
export function syncNodefsToDisk(pglite: PGlite, sync: (fd: number) => void = fsyncSync): void {
  const fs = (
    pglite.Module as unknown as {
      FS: { filesystems: { NODEFS?: { stream_ops: { fsync?: (stream: NodefsStream) => number } } } };
    }
  ).FS;
  const nodefs = fs.filesystems.NODEFS;
  if (nodefs === undefined) throw new Error('PGlite has no NODEFS: cannot make its commits durable');
  nodefs.stream_ops.fsync = (stream) => {
    if (stream.nfd === undefined) return 0;
    try {
      sync(stream.nfd);
      return 0;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EINVAL' ? WASI_EINVAL : WASI_EIO;
    }
  };
}
