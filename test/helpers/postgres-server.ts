import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Local server over the unix socket as role `root` (what scripts/ensure-postgres.sh sets up). */
export const DEFAULT_TEST_DATABASE_URL = 'postgres://root@/postgres?host=/var/run/postgresql';

export function testDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL?.trim() || DEFAULT_TEST_DATABASE_URL;
}

export type PostgresProbe = { available: true; url: string } | { available: false; url: string; reason: string };

/** Answers within about `timeoutMs` whether a server accepts `select 1` at `url`. */
export async function probePostgres(url: string, timeoutMs = 1000): Promise<PostgresProbe> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {}); // a late socket error after a timeout must not crash the test process
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([client.connect().then(() => client.query('select 1')), timeout]);
    return { available: true, url };
  } catch (error) {
    return { available: false, url, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    void client.end().catch(() => {});
  }
}

/** `url` with its database name replaced (keeps user, host and query such as `?host=/socket/dir`). */
export function withDatabaseName(url: string, database: string): string {
  const match = /^(postgres(?:ql)?:\/\/[^/?#]*)(\/[^?#]*)?(.*)$/.exec(url);
  if (match === null) throw new Error(`not a postgres:// URL: ${url}`);
  return `${match[1]}/${encodeURIComponent(database)}${match[3]}`;
}

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates a uniquely named database so a test file cannot see any other file's rows: empty, or a copy of `template`
 * (a database nobody is connected to).
 */
export async function createScratchDatabase(adminUrl: string, template?: string): Promise<ScratchDatabase> {
  const name = `mg_test_${randomBytes(6).toString('hex')}`;
  await runAdmin(adminUrl, `create database "${name}"${template === undefined ? '' : ` template "${template}"`}`);
  return {
    name,
    url: withDatabaseName(adminUrl, name),
    // `with (force)` ends connections a failed test may have leaked (PostgreSQL 13+).
    drop: () => runAdmin(adminUrl, `drop database if exists "${name}" with (force)`),
  };
}

/**
 * The name of a database that `build` filled, made once per name on the server: the first caller builds it under a
 * temporary name and renames it when complete, while an advisory lock keeps every other caller (other workers, other
 * runs) waiting; they then find it. A failed build leaves nothing behind.
 */
export async function sharedTemplateDatabase(
  adminUrl: string,
  name: string,
  build: (url: string) => Promise<void>,
): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [name]);
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const building = `${name}_building`;
      await client.query(`drop database if exists "${building}" with (force)`);
      await client.query(`create database "${building}"`);
      try {
        await build(withDatabaseName(adminUrl, building));
        await client.query(`alter database "${building}" rename to "${name}"`);
      } catch (error) {
        await client.query(`drop database if exists "${building}" with (force)`);
        throw error;
      }
    }
    return name;
  } finally {
    await client.end(); // ends the session, and with it the advisory lock
  }
}

async function runAdmin(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
