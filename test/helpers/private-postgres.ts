// A PostgreSQL 15 server of a test's own (initdb into a temp folder, its own socket folder and port), for tests that
// restart or stop the database under a running gateway: the machine's shared server is never touched. As root the
// server runs as the `postgres` OS user (PostgreSQL refuses to run as root).
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './serve-process.js';

const run = promisify(execFile);
const BIN = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const SERVER_USER = 'postgres';

export interface PrivatePostgres {
  /** `postgres://` URL of the server's `postgres` database over its unix socket. */
  url: string;
  /** `pg_ctl restart -m fast`: every connection is terminated, then the server accepts again. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server (immediately) and deletes its folders. */
  destroy(): Promise<void>;
}

/** Why a private server cannot be started here, or undefined when it can. */
export function privatePostgresUnavailable(): string | undefined {
  if (!existsSync(path.join(BIN, 'initdb'))) return `no PostgreSQL binaries in ${BIN}`;
  if (userInfo().uid === 0) {
    try {
      uidOf(SERVER_USER);
    } catch {
      return `running as root and there is no ${SERVER_USER} user to run the server as`;
    }
  }
  return undefined;
}

function uidOf(user: string): { uid: number; gid: number } {
  // `id` rather than parsing /etc/passwd: it answers for every name service.
  const id = (flag: string) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Runs one of the server's programs, as the server's user when this process is root. */
async function asServerUser(program: string, args: string[]): Promise<string> {
  const command = path.join(BIN, program);
  const { stdout } =
    userInfo().uid === 0
      ? await run('runuser', ['-u', SERVER_USER, '--', command, ...args], { cwd: '/' })
      : await run(command, args, { cwd: '/' });
  return stdout;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const root = mkdtempSync(path.join(tmpdir(), 'modelgate-pg-'));
  if (userInfo().uid === 0) {
    const { uid, gid } = uidOf(SERVER_USER);
    chownSync(root, uid, gid);
  }
  const dataDir = path.join(root, 'data');
  const logFile = path.join(root, 'server.log');
  const port = await freePort();
  // The socket only (no TCP), in the server's own folder; fsync off: the tests stop the server, never the machine.
  const options = `-k ${root} -p ${port} -c listen_addresses='' -c fsync=off`;
  const ctl = (...args: string[]) => asServerUser('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '30', ...args]);
  await asServerUser('initdb', [
    '-D',
    dataDir,
    '-U',
    SERVER_USER,
    '-A',
    'trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  await ctl('-o', options, 'start');
  let destroyed = false;
  return {
    url: `postgres://${SERVER_USER}@localhost:${port}/postgres?host=${encodeURIComponent(root)}`,
    restart: async () => void (await ctl('-o', options, '-m', 'fast', 'restart')),
    stop: async () => void (await ctl('-m', 'fast', 'stop')),
    start: async () => void (await ctl('-o', options, 'start')),
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
