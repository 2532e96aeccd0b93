import { Mutex, type PGliteInterface } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

export interface PGliteDialectConfig {
  /** The instance to run on. The dialect owns it: `Kysely#destroy()` closes it. */
  pglite: PGliteInterface | (() => Promise<PGliteInterface>);
  /**
   * The lock on PGlite's one session. Pass the same lock to every other user of the instance (the socket bridge of
   * src/db/data-folder/) so that their transactions and ours take turns instead of interleaving. Default: our own.
   */
  session?: Mutex;
}

/**
 * Kysely dialect for embedded PGlite. PGlite is PostgreSQL, so SQL generation, introspection and the
 * migration lock reuse Kysely's PostgreSQL pieces; only the driver is ours. (The published
 * `kysely-pglite-dialect` declares peers up to PGlite 0.4 only.)
 */
export class PGliteDialect implements Dialect {
  readonly #config: PGliteDialectConfig;

  constructor(config: PGliteDialectConfig) {
    this.#config = config;
  }

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.#config);
  }

  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

/**
 * PGlite is one backend session. Kysely assumes a pool, so we hand out that single connection to
 * one borrower at a time: a transaction holds it from BEGIN to COMMIT and concurrent callers queue
 * behind it instead of interleaving their statements into someone else's transaction.
 * Consequence: code inside `db.transaction()` must use the `trx`, never the outer `db`, or it waits
 * for itself (the same rule keeps `pg` pools from exhausting, so it costs nothing extra).
 */
class PGliteDriver implements Driver {
  readonly #config: PGliteDialectConfig;
  readonly #mutex: Mutex;
  #pglite: PGliteInterface | undefined;
  #connection: PGliteConnection | undefined;
  #release: (() => void) | undefined;

  constructor(config: PGliteDialectConfig) {
    this.#config = config;
    this.#mutex = config.session ?? new Mutex();
  }

  async init(): Promise<void> {
    const { pglite } = this.#config;
    this.#pglite = typeof pglite === 'function' ? await pglite() : pglite;
    await this.#pglite.waitReady;
    this.#connection = new PGliteConnection(this.#pglite);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.acquire();
    if (this.#connection === undefined) {
      release();
      throw new Error('PGlite driver is not initialised or has been destroyed');
    }
    this.#release = release;
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let statement = 'begin';
    if (settings.isolationLevel !== undefined || settings.accessMode !== undefined) {
      statement = 'start transaction';
      if (settings.isolationLevel !== undefined) statement += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode !== undefined) statement += ` ${settings.accessMode}`;
    }
    await connection.executeQuery(CompiledQuery.raw(statement));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdent(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdent(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdent(name)}`));
  }

  async destroy(): Promise<void> {
    const pglite = this.#pglite;
    this.#pglite = undefined;
    this.#connection = undefined;
    if (pglite !== undefined && !pglite.closed) await pglite.close();
  }
}

const COMMANDS_WITH_ROW_COUNT = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

class PGliteConnection implements DatabaseConnection {
  readonly #pglite: PGliteInterface;

  constructor(pglite: PGliteInterface) {
    this.#pglite = pglite;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.#pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters], {
      rowMode: 'object',
    });
    const counted = result.command !== undefined && COMMANDS_WITH_ROW_COUNT.has(result.command);
    return {
      rows: result.rows ?? [],
      numAffectedRows: counted ? BigInt(result.affectedRows ?? 0) : undefined,
    };
  }

  /**
   * PGlite has no server-side cursors across calls, so this runs the query once and yields the
   * rows in chunks: same API as the `pg` dialect, without its bounded memory use.
   */
  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    if (!Number.isInteger(chunkSize) || chunkSize <= 0) throw new Error('chunkSize must be a positive integer');
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (let i = 0; i < rows.length; i += chunkSize) {
      yield { rows: rows.slice(i, i + chunkSize) };
    }
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
