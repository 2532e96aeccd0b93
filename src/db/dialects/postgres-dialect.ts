import { CompiledQuery, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { markUnavailable } from '../database-unavailable.js';
import { INT8_OID, parseInt8 } from '../type-parsers.js';

export interface PostgresDialectOptions {
  databaseUrl: string;
  /** Put first (and only) on every pooled connection's search_path. */
  schema?: string;
  maxConnections?: number;
  /** Errors of idle pooled clients (server restart, network drop); `pg` crashes the process without a listener. */
  onIdleClientError?: (error: Error) => void;
}

// Scoped to this pool through the `types` option: `pg.types.setTypeParser` would change parsing for
// every other `pg` user in the process too.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** A Kysely PostgreSQL dialect over a `pg` pool that parses int8 as `bigint` and honours `schema`. */
export function createPostgresDialect(options: PostgresDialectOptions): PostgresDialect {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.maxConnections ?? 10,
    // Fail a request rather than hang forever when the server is unreachable.
    connectionTimeoutMillis: 10_000,
    types,
  });
  pool.on('error', options.onIdleClientError ?? ((error) => process.emitWarning(error, 'PostgresPoolWarning')));
  // The pool listens for errors of idle clients only. A client whose server goes away while it is checked out (between
  // two statements of a transaction, or as a statement is sent: EPIPE) emits 'error' too, and an 'error' nobody
  // listens to ends the process. Its statements fail on their own (and are marked unavailable below); the pool drops
  // the broken client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));

  const setSearchPath =
    options.schema === undefined ? undefined : CompiledQuery.raw(`set search_path to ${quoteIdent(options.schema)}`);
  return new PostgresDialect({
    pool: markingUnavailable(pool),
    onCreateConnection: setSearchPath && (async (connection) => void (await connection.executeQuery(setSearchPath))),
  });
}

/**
 * The pool as Kysely uses it, with connection failures (no server, a connection the server ended) thrown as
 * DatabaseUnavailableError. One wrapper per client: Kysely knows its connections by the client object.
 */
function markingUnavailable(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    query: ((text: string, parameters: unknown[]) =>
      client
        .query(text, parameters)
        .catch((err: unknown) => Promise.reject(markUnavailable(err)))) as PostgresPoolClient['query'],
    release: () => client.release(),
  });
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw markUnavailable(err);
      }
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
