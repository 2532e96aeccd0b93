// Opening the embedded database so that only one process ever has the folder open:
//   serve    takes the lock, opens the folder and serves it on a unix socket; refuses a folder that is already served;
//   commands go through the socket when the folder is served, else take the lock and open the folder themselves.
// A lock whose process is gone (a crash, kill -9) is removed and taken over.
import { mkdir } from 'node:fs/promises';
import { Kysely, sql } from 'kysely';
import { Mutex } from '@electric-sql/pglite';
import { openDatabase, type OpenDatabaseOptions, type OpenedDatabase } from '../connect.js';
import type { Db } from '../database.js';
import { openPglite } from '../dialects/pglite-instance.js';
import { PGliteDialect } from '../dialects/pglite-dialect.js';
import {
  DataFolderBusyError,
  describeHolder,
  isAlive,
  lockPath,
  readLock,
  removeStaleLock,
  tryLock,
  type HeldLock,
  type LockHolder,
} from './data-folder-lock.js';
import { serveDataFolderSocket, socketConnectionString, socketPathFor } from './data-folder-socket.js';
import { PRIVATE_FOLDER_MODE } from './private-folder.js';

/** How long to wait for a folder that a command holds (commands take well under a second) or that is starting. */
const WAIT_MS = 60_000;
const POLL_MS = 50;

export interface DataFolderEvents {
  /** A lock of a process that is gone was removed. */
  onStaleLock?: (holder: LockHolder) => void;
}

type Claim = { owner: HeldLock } | { served: LockHolder };

/** Takes the folder's lock, or finds the gateway serving it. Waits while a command holds it; clears stale locks. */
async function claim(
  dataDir: string,
  role: LockHolder['role'],
  socket: string | null,
  events: DataFolderEvents,
): Promise<Claim> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const lock = await tryLock(dataDir, role, socket);
    if (lock) return { owner: lock };
    const holder = await readLock(dataDir);
    if (holder && !isAlive(holder.pid)) {
      await removeStaleLock(dataDir, holder);
      events.onStaleLock?.(holder);
      continue;
    }
    if (holder?.role === 'serve') return { served: holder };
    if (holder && Date.now() > deadline) {
      throw new DataFolderBusyError(
        `data folder ${dataDir} is held by ${describeHolder(holder)} for more than ${WAIT_MS / 1000} s`,
      );
    }
    await sleep(POLL_MS);
  }
}

/**
 * The serving process's database: PostgreSQL when `databaseUrl` is set, else the embedded folder, locked and served
 * on a unix socket to the CLI. Throws DataFolderBusyError, before touching the folder, when another gateway serves it.
 */
export async function openServingDatabase(
  options: OpenDatabaseOptions & DataFolderEvents,
): Promise<OpenedDatabase & { socket?: string }> {
  if (options.databaseUrl !== undefined || options.dataDir === undefined) return openDatabase(options);
  const { dataDir } = options;
  await mkdir(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const socketPath = socketPathFor(dataDir);
  const claimed = await claim(dataDir, 'serve', socketPath, options);
  if ('served' in claimed) {
    const { pid, socket } = claimed.served;
    throw new DataFolderBusyError(
      `data folder ${dataDir} is already served by a running gateway (pid ${pid}, socket ${socket}): stop that one first, ` +
        'or give this one its own MODELGATE_DATA_DIR or a DATABASE_URL',
    );
  }
  const lock = claimed.owner;
  const stopGuard = releaseOnExit(lock);
  try {
    const session = new Mutex();
    const pglite = await openPglite({ dataDir });
    const db: Db = new Kysely({ dialect: new PGliteDialect({ pglite, session }) });
    try {
      const server = await serveDataFolderSocket(pglite, session, socketPath);
      const close = async () => {
        await server.close();
        await db.destroy();
        await lock.release();
        stopGuard();
      };
      return { db, dialect: 'pglite', pglite, socket: server.path, close };
    } catch (err) {
      await db.destroy();
      throw err;
    }
  } catch (err) {
    await lock.release();
    stopGuard();
    throw err;
  }
}

/**
 * A command's database (CLI, `migrate`): PostgreSQL when `databaseUrl` is set; else the running gateway's database
 * through its socket, so the gateway sees every change at once; else (nobody serves the folder) the folder itself,
 * locked while the command runs.
 */
export async function openCommandDatabase(options: OpenDatabaseOptions & DataFolderEvents): Promise<OpenedDatabase> {
  if (options.databaseUrl !== undefined || options.dataDir === undefined) return openDatabase(options);
  const { dataDir } = options;
  await mkdir(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const claimed = await claim(dataDir, 'cli', null, options);
    if ('owner' in claimed) return openLocked(dataDir, claimed.owner);
    const { socket, pid } = claimed.served;
    if (socket) {
      try {
        return await connectThroughSocket(socket);
      } catch (err) {
        // A gateway that is starting (socket not bound yet) or stopping (lock not yet removed): ask again.
        if (!isUnreachable(err)) throw err;
      }
    }
    if (Date.now() > deadline) {
      throw new DataFolderBusyError(
        `data folder ${dataDir} is served by a gateway (pid ${pid}) whose socket ${socket} does not answer; ` +
          `if no modelgate process has that pid, the lock is left over: delete ${lockPath(dataDir)}`,
      );
    }
    await sleep(POLL_MS * 2);
  }
}

async function openLocked(dataDir: string, lock: HeldLock): Promise<OpenedDatabase> {
  const stopGuard = releaseOnExit(lock);
  try {
    const opened = await openDatabase({ dataDir });
    return {
      ...opened,
      close: async () => {
        try {
          await opened.close();
        } finally {
          await lock.release();
          stopGuard();
        }
      },
    };
  } catch (err) {
    await lock.release();
    stopGuard();
    throw err;
  }
}

/** One connection: PGlite has one session anyway, and a command's transaction must never wait for a second one. */
async function connectThroughSocket(socket: string): Promise<OpenedDatabase> {
  const opened = await openDatabase({ databaseUrl: socketConnectionString(socket), maxConnections: 1 });
  try {
    await sql`select 1`.execute(opened.db);
    return opened;
  } catch (err) {
    await opened.close();
    throw err;
  }
}

function isUnreachable(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return (
    code === 'ENOENT' ||
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    /Connection terminated/i.test(String((err as Error)?.message))
  );
}

/** A process that exits without closing (an uncaught error) leaves no lock behind; a crash leaves a stale one. */
function releaseOnExit(lock: HeldLock): () => void {
  const onExit = () => lock.releaseSync();
  process.once('exit', onExit);
  return () => process.off('exit', onExit);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
