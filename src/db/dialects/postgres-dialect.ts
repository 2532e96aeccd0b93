import { CompiledQuery, PostgresDialect } from 'kysely';
import pg from 'pg';
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

  const setSearchPath =
    options.schema === undefined ? undefined : CompiledQuery.raw(`set search_path to ${quoteIdent(options.schema)}`);
  return new PostgresDialect({
    pool,
    onCreateConnection: setSearchPath && (async (connection) => void (await connection.executeQuery(setSearchPath))),
  });
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
