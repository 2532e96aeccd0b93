// Who owns an embedded database folder. PGlite is one process's database: two processes opening the same folder each
// keep their own copy in memory and the last to close overwrites the other's writes. So exactly one process opens the
// folder — the one holding `modelgate.lock` — and every other process goes through it (data-folder-socket.ts).
import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const LOCK_FILE = 'modelgate.lock';

/** What the lock file says about its holder. */
export interface LockHolder {
  pid: number;
  /** `serve`: a gateway that serves the folder on `socket`; `cli`: a command that opened it for a moment. */
  role: 'serve' | 'cli';
  /** Unix socket of the serving process (role `serve`), else null. */
  socket: string | null;
  started_at: string;
  /** Tells this holder apart from a later one with a recycled pid. */
  token: string;
}

/** The folder is served by another live process (or held by a command for longer than we wait): exit code 2. */
export class DataFolderBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFolderBusyError';
  }
}

export interface HeldLock {
  holder: LockHolder;
  /** Removes the lock file if it is still ours. */
  release(): Promise<void>;
  /** The same, synchronously: for process 'exit' handlers. */
  releaseSync(): void;
}

export function lockPath(dataDir: string): string {
  return path.join(dataDir, LOCK_FILE);
}

/** Signal 0 checks existence only; EPERM means the process exists but belongs to another user. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The current holder, or undefined when there is none (or the file is unreadable: a holder that is being replaced). */
export async function readLock(dataDir: string): Promise<LockHolder | undefined> {
  return readLockFile(lockPath(dataDir));
}

async function readLockFile(file: string): Promise<LockHolder | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as LockHolder;
    if (!Number.isInteger(parsed.pid) || parsed.pid <= 0) return undefined;
    return parsed;
  } catch {
    return undefined;
  }
}

/**
 * Creates the lock atomically: the content is written to a private file first and then hard-linked into place, which
 * fails if a lock exists, so no reader ever sees a half-written lock and two processes can never both succeed.
 * Returns undefined when the folder is already locked.
 */
export async function tryLock(
  dataDir: string,
  role: LockHolder['role'],
  socket: string | null,
): Promise<HeldLock | undefined> {
  const holder: LockHolder = {
    pid: process.pid,
    role,
    socket,
    started_at: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  const target = lockPath(dataDir);
  const draft = `${target}.${process.pid}.${holder.token}`;
  await writeFile(draft, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  try {
    await link(draft, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw err;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
  let released = false;
  return {
    holder,
    async release() {
      if (released) return;
      released = true;
      const current = await readLockFile(target);
      if (current?.token === holder.token) await unlink(target).catch(() => undefined);
    },
    releaseSync() {
      if (released) return;
      released = true;
      try {
        if ((JSON.parse(readFileSync(target, 'utf8')) as LockHolder).token === holder.token) unlinkSync(target);
      } catch {
        // gone or unreadable: nothing of ours to remove
      }
    },
  };
}

/**
 * Removes a lock whose holder is gone. Moving it aside first (atomic) and checking that what moved is the dead
 * holder's lock means a lock that a live process took in the meantime is never deleted: it is linked back instead.
 */
export async function removeStaleLock(dataDir: string, stale: LockHolder): Promise<void> {
  const target = lockPath(dataDir);
  const aside = `${target}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(target, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await readLockFile(aside);
  if (moved !== undefined && moved.token !== stale.token) await link(aside, target).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

export function describeHolder(holder: LockHolder): string {
  return holder.role === 'serve' ? `a running gateway (pid ${holder.pid})` : `a modelgate command (pid ${holder.pid})`;
}
