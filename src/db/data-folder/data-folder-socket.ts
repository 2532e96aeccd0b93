// The serving process's embedded database, offered to other local processes (the CLI) as a PostgreSQL server on a unix
// socket, so they reach the one live copy through their normal `pg` path instead of opening the folder a second time.
import { createHash } from 'node:crypto';
import { chmod, mkdir, unlink } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Mutex, PGliteInterface } from '@electric-sql/pglite';
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket';
import { PgliteSessionQueue } from './pglite-session-queue.js';

/** libpq's naming (`<dir>/.s.PGSQL.<port>`), so `pg` finds it with host = the folder and the default port. */
export const SOCKET_NAME = '.s.PGSQL.5432';
const SOCKET_PORT = 5432;
/** sun_path holds 108 bytes on Linux (104 on macOS); longer paths cannot be bound. */
const MAX_SOCKET_PATH = 100;
/** A client connection that sends nothing for this long is closed, so a stalled client cannot hold the session. */
const IDLE_TIMEOUT_MS = 60_000;

/** The socket inside the data folder, or (path too long for a socket) in a folder of the temp dir named after it. */
export function socketPathFor(dataDir: string): string {
  const inside = path.join(dataDir, SOCKET_NAME);
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH) return inside;
  const id = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(tmpdir(), `modelgate-${id}`, SOCKET_NAME);
}

/** The `pg` connection string for a socket made by socketPathFor (libpq's `host=<dir>` form). */
export function socketConnectionString(socketPath: string): string {
  const port = Number(/\.s\.PGSQL\.(\d+)$/.exec(socketPath)?.[1] ?? SOCKET_PORT);
  return `postgresql://postgres@/postgres?host=${encodeURIComponent(path.dirname(socketPath))}&port=${port}`;
}

export interface DataFolderSocket {
  path: string;
  /** Stops accepting, closes client connections (rolling back what they left open) and removes the socket file. */
  close(): Promise<void>;
}

/**
 * Serves `pglite` on `socketPath` through pglite-socket's protocol handler. Clients take turns with each other and
 * with this process's own queries on PGlite's single session: `session` is the lock our Kysely driver holds
 * (pglite-session-queue.ts explains the turns).
 */
export async function serveDataFolderSocket(
  pglite: PGliteInterface,
  session: Mutex,
  socketPath: string,
): Promise<DataFolderSocket> {
  await mkdir(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  // Only the lock holder serves, so a socket file left here belongs to a process that is gone.
  await unlink(socketPath).catch(() => undefined);
  const queue = new PgliteSessionQueue(pglite, session);
  const handlers = new Set<PGLiteSocketHandler>();
  const server = net.createServer((socket) => {
    const handler = new PGLiteSocketHandler({
      // Our queue honours the contract of pglite-socket's (unexported) QueryQueueManager.
      queryQueue: queue as unknown as PGLiteSocketHandlerOptions['queryQueue'],
      closeOnDetach: true,
      idleTimeout: IDLE_TIMEOUT_MS,
    });
    handlers.add(handler);
    const forget = () => handlers.delete(handler);
    handler.addEventListener('close', forget);
    handler.addEventListener('error', forget);
    handler.attach(socket).catch(() => {
      forget();
      socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // PGlite trusts every connection: only this user may connect.
  await chmod(socketPath, 0o600);
  let closing: Promise<void> | undefined;
  return {
    path: socketPath,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await Promise.all([...handlers].map((handler) => handler.detach(true)));
        await stopped;
        await unlink(socketPath).catch(() => undefined);
      })()),
  };
}
