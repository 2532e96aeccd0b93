// The embedded data folder's one owner (src/db/data-folder/): the lock, the socket the owner serves, and how socket
// clients and the owner's own queries share PGlite's single session.
import {
  type Stats,
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CredentialCache } from '../../src/auth/credential-cache.js';
import { listenForCredentialChangesInPglite } from '../../src/db/credential-notifications.js';
import type { OpenedDatabase } from '../../src/db/connect.js';
import {
  DataFolderBusyError,
  readLock,
  removeStaleLock,
  tryLock,
  type LockHolder,
} from '../../src/db/data-folder/data-folder-lock.js';
import { socketConnectionString } from '../../src/db/data-folder/data-folder-socket.js';
import { openCommandDatabase, openServingDatabase } from '../../src/db/data-folder/open-data-folder.js';
import { readyStatus } from '../../src/db/data-folder/pglite-session-queue.js';

const work = mkdtempSync(path.join(tmpdir(), 'modelgate-folder-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The pid of a process that has exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim());
}

function staleLock(dir: string, role: LockHolder['role']): LockHolder {
  const holder: LockHolder = {
    pid: deadPid(),
    role,
    socket: role === 'serve' ? path.join(dir, '.s.PGSQL.5432') : null,
    started_at: new Date().toISOString(),
    token: 'stale',
  };
  writeFileSync(path.join(dir, 'modelgate.lock'), JSON.stringify(holder));
  return holder;
}

describe('data folder lock', () => {
  it('is taken once, released only by its holder, and a stale one is removed without touching a fresh one', async () => {
    const dir = mkdtempSync(path.join(work, 'lock-'));
    const first = await tryLock(dir, 'cli', null);
    expect(first).toBeDefined();
    expect(await tryLock(dir, 'serve', '/x')).toBeUndefined();
    expect(await readLock(dir)).toEqual(first!.holder);
    await first!.release();
    expect(await readLock(dir)).toBeUndefined();

    // Between reading a dead holder's lock and removing it, a live process took the folder: its lock stays.
    const dead = staleLock(dir, 'serve');
    rmSync(path.join(dir, 'modelgate.lock'));
    const fresh = await tryLock(dir, 'serve', '/y');
    await removeStaleLock(dir, dead);
    expect((await readLock(dir))?.token).toBe(fresh!.holder.token);
    // A release by an old holder leaves the current lock alone.
    await first!.release();
    fresh!.releaseSync();
    expect(await readLock(dir)).toBeUndefined();
  });

  it('reads the transaction status of the last ReadyForQuery in a reply', () => {
    const message = (type: string, body: number[]) => [type.charCodeAt(0), 0, 0, 0, 4 + body.length, ...body];
    const reply = (...parts: number[][]) => Uint8Array.from(parts.flat());
    expect(readyStatus(reply(message('1', [])))).toBeUndefined();
    expect(readyStatus(reply(message('C', [0x41, 0]), message('Z', [0x54])))).toBe(0x54);
    expect(readyStatus(reply(message('Z', [0x54]), message('C', [0]), message('Z', [0x49])))).toBe(0x49);
  });
});

describe('a served data folder', () => {
  const dir = path.join(work, 'served');
  let served: Awaited<ReturnType<typeof openServingDatabase>>;
  const clients: pg.Client[] = [];
  const client = async () => {
    const c = new pg.Client({ connectionString: socketConnectionString(served.socket!) });
    c.on('error', () => undefined);
    await c.connect();
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    served = await openServingDatabase({ dataDir: dir });
    await sql`create table t (n int)`.execute(served.db);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await served?.close();
  });

  it('is locked by the serving process and refused to a second server; commands reach it through the socket', async () => {
    expect(await readLock(dir)).toMatchObject({
      pid: process.pid,
      role: 'serve',
      socket: path.join(dir, '.s.PGSQL.5432'),
    });
    await expect(openServingDatabase({ dataDir: dir })).rejects.toThrow(DataFolderBusyError);
    const command: OpenedDatabase = await openCommandDatabase({ dataDir: dir });
    try {
      expect(command.dialect).toBe('postgres');
      await sql`insert into t values (100)`.execute(command.db);
    } finally {
      await command.close();
    }
    const { rows } = await sql<{ n: number }>`select n from t where n = 100`.execute(served.db);
    expect(rows).toEqual([{ n: 100 }]);
  });

  it("holds the server's own queries back while a client's transaction is open, instead of running them inside it", async () => {
    const a = await client();
    await a.query('begin');
    await a.query('insert into t values ($1)', [1]);
    // Run inside A's open transaction (the bug), this would count 1 uncommitted row; waiting its turn, it counts 2.
    const counted = sql<{ count: string }>`select count(*)::text as count from t where n in (1, 2)`.execute(served.db);
    await a.query('insert into t values ($1)', [2]);
    await a.query('commit');
    expect((await counted).rows[0].count).toBe('2');
  });

  it('rolls back what a client that went away left open, and hands the session on', async () => {
    const b = await client();
    await b.query('begin');
    await b.query('insert into t values ($1)', [3]);
    const counted = sql<{ count: string }>`select count(*)::text as count from t where n = 3`.execute(served.db);
    await b.end();
    expect((await counted).rows[0].count).toBe('0');
  });

  it('keeps parameterised queries of concurrent clients and of the server apart', async () => {
    const [c, d] = await Promise.all([client(), client()]);
    const asked = Array.from({ length: 60 }, (_, i) => i);
    const answers = await Promise.all(
      asked.map(async (i) => {
        if (i % 3 === 0) return (await sql<{ v: number }>`select ${i}::int as v`.execute(served.db)).rows[0].v;
        const via = i % 3 === 1 ? c : d;
        return (await via.query<{ v: number }>('select $1::int as v', [i])).rows[0].v;
      }),
    );
    expect(answers).toEqual(asked);
  });

  it("delivers a client's NOTIFY to the server's credential listener (the gateway's cache hears CLI changes)", async () => {
    const cache = { invalidate: vi.fn(), invalidateAll: vi.fn(), setEnabled: vi.fn() };
    const listener = await listenForCredentialChangesInPglite(
      served.db,
      served.pglite!,
      cache as unknown as CredentialCache,
    );
    try {
      const e = await client();
      await e.query(`select pg_notify('modelgate_credentials', 'hash-from-cli')`);
      await vi.waitFor(() => expect(cache.invalidate).toHaveBeenCalledWith('hash-from-cli'), {
        timeout: 5000,
        interval: 10,
      });
      expect(cache.setEnabled).toHaveBeenLastCalledWith(true);
    } finally {
      await listener.close();
    }
  });
});

describe('a data folder whose holder is gone', () => {
  it('is taken over by a command, which holds the lock while it runs', async () => {
    const dir = mkdtempSync(path.join(work, 'stale-cli-'));
    staleLock(dir, 'serve');
    const opened = await openCommandDatabase({ dataDir: dir });
    try {
      expect(opened.dialect).toBe('pglite');
      expect(await readLock(dir)).toMatchObject({ pid: process.pid, role: 'cli', socket: null });
    } finally {
      await opened.close();
    }
    expect(existsSync(path.join(dir, 'modelgate.lock'))).toBe(false);
  }, 120_000);

  it('is taken over by a server, which reports it', async () => {
    const dir = mkdtempSync(path.join(work, 'stale-serve-'));
    const stale = staleLock(dir, 'cli');
    const onStaleLock = vi.fn();
    const opened = await openServingDatabase({ dataDir: dir, onStaleLock });
    try {
      expect(onStaleLock).toHaveBeenCalledWith(stale);
      expect(JSON.parse(readFileSync(path.join(dir, 'modelgate.lock'), 'utf8'))).toMatchObject({
        pid: process.pid,
        role: 'serve',
      });
    } finally {
      await opened.close();
    }
  }, 120_000);
});

/** Every entry under `dir` (itself included) whose permission bits are not private (0700 folders, 0600 files). */
function looseEntries(dir: string): string[] {
  const loose = (name: string, stats: Stats) =>
    !stats.isSymbolicLink() && (stats.mode & 0o777) !== (stats.isDirectory() ? 0o700 : 0o600)
      ? [`${name} ${(stats.mode & 0o777).toString(8)}`]
      : [];
  const names = readdirSync(dir, { recursive: true }) as string[];
  expect(names.length).toBeGreaterThan(100);
  return [...loose('.', statSync(dir)), ...names.flatMap((name) => loose(name, lstatSync(path.join(dir, name))))];
}

describe('the data folder is private to the service user', () => {
  it('folder 0700 and every file 0600, for a folder that existed as 0755 and a permissive umask, also for files written later', async () => {
    const dir = path.join(work, 'private');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    writeFileSync(path.join(dir, 'left-by-the-operator.txt'), 'x', { mode: 0o644 });
    const umask = process.umask(0o000);
    try {
      const opened = await openServingDatabase({ dataDir: dir });
      // New tables and rows: files PGlite creates while the gateway runs.
      await sql`create table grow (id int primary key, filler text)`.execute(opened.db);
      await sql`insert into grow select g, repeat('x', 500) from generate_series(1, 5000) g`.execute(opened.db);
      await sql`checkpoint`.execute(opened.db);
      expect(looseEntries(dir)).toEqual([]);
      await opened.close();
      expect(looseEntries(dir)).toEqual([]);
    } finally {
      process.umask(umask);
    }
    // A fresh embedded database runs every migration with durable commits: slow on a busy disk.
  }, 90_000);
});
