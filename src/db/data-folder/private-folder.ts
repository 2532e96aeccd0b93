// The embedded database folder holds every key hash, ledger row and prompt record: it is the service user's alone,
// whatever the operator's umask and however the folder came to exist. PGlite makes it world-readable otherwise: its
// file system layer writes the initial database files with mode 0666 (explicit chmod, past any umask), and files it
// creates later follow the process umask (0644 under the usual 022).
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` if needed and makes it private: the folder and every folder under it 0700, every file 0600. */
export async function makeFolderPrivate(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const pending = [dir];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    await chmod(folder, PRIVATE_FOLDER_MODE);
    for (const name of await readdir(folder)) {
      const entry = path.join(folder, name);
      // lstat: a symbolic link is left alone (chmod would follow it out of the folder).
      const stats = await lstat(entry).catch(() => undefined);
      if (stats?.isDirectory()) pending.push(entry);
      else if (stats && !stats.isSymbolicLink()) await chmod(entry, PRIVATE_FILE_MODE).catch(ignoreGone);
    }
  }
}

/**
 * Files this process creates from now on get no group or other permissions (umask 077 added to the current one), so
 * the files PGlite adds to the folder later are private too. Worker threads cannot change the umask; the process
 * that opens a data folder is a main thread.
 */
export function restrictUmask(): void {
  if (!isMainThread) return;
  // Setting returns the previous mask; reading it without setting is deprecated.
  const previous = process.umask(0o077);
  process.umask(previous | 0o077);
}

/** A file removed between the listing and the chmod (PGlite's temporary files) needs nothing. */
function ignoreGone(err: NodeJS.ErrnoException): void {
  if (err.code !== 'ENOENT') throw err;
}
