// Lets socket clients and the serving process share PGlite's one backend session without stepping on each other.
//
// pglite-socket's own queue hands the session to whichever connection sends the next message, and keeps it for one
// client only while `BEGIN ... COMMIT` is open. That is not enough here: the gateway in the same process uses PGlite
// directly (not through a socket), and node-postgres sends every parameterised query as Parse/Bind/Execute/Sync —
// four messages that must not be split, or another client's Parse replaces the unnamed statement in between. So a
// connection takes the session lock (the same lock our Kysely driver takes, see pglite-dialect.ts) at its first
// message and keeps it until PostgreSQL reports "ReadyForQuery, idle": the end of a statement or transaction.
//
// Messages run through `execProtocol` (not the raw stream pglite-socket uses) because that path parses the replies
// and hands NOTIFY messages to PGlite's listeners: a key the CLI deletes reaches the gateway's credential cache.
import type { Mutex, PGliteInterface } from '@electric-sql/pglite';

type Release = () => void;

interface Connection {
  /** This connection's messages run one after the other, in the order they arrived. */
  chain: Promise<unknown>;
  /** Set while the connection holds the session (between its first message and ReadyForQuery idle). */
  release?: Release;
  closed: boolean;
  cleanup?: Promise<void>;
}

const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'
const SYNC = Uint8Array.from([0x53, 0, 0, 0, 4]); // 'S', length 4
const ROLLBACK = simpleQuery('rollback');

/**
 * The contract pglite-socket's PGLiteSocketHandler expects from its `queryQueue` (its own QueryQueueManager is not
 * exported): `enqueue` runs one frontend message and passes the reply on; the other two run when a client goes away.
 */
export class PgliteSessionQueue {
  readonly #connections = new Map<number, Connection>();

  constructor(
    private readonly pglite: PGliteInterface,
    private readonly session: Mutex,
  ) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const connection = this.#connection(handlerId);
    const run = connection.chain.then(() => this.#run(connection, message, onData));
    connection.chain = run.catch(() => undefined);
    return run;
  }

  /** The client is gone: its messages that have not run yet are dropped. */
  clearQueueForHandler(handlerId: number): void {
    const connection = this.#connections.get(handlerId);
    if (connection) connection.closed = true;
  }

  /** The client is gone: leave the session as we found it (no half-sent query, no open transaction) and hand it on. */
  clearTransactionIfNeeded(handlerId: number): Promise<void> {
    const connection = this.#connections.get(handlerId);
    if (!connection) return Promise.resolve();
    connection.closed = true;
    connection.cleanup ??= connection.chain.then(async () => {
      this.#connections.delete(handlerId);
      const release = connection.release;
      if (!release) return;
      connection.release = undefined;
      try {
        // Sync ends an unfinished Parse/Bind/Execute exchange (and the "skip until Sync" state after an error in one).
        const { data } = await this.#exec(SYNC);
        if (readyStatus(data) !== IDLE) await this.#exec(ROLLBACK);
      } finally {
        release();
      }
    });
    return connection.cleanup;
  }

  async #run(connection: Connection, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    if (connection.closed) throw new Error('Handler disconnected');
    if (!connection.release) {
      const release = await this.session.acquire();
      if (connection.closed) {
        release();
        throw new Error('Handler disconnected');
      }
      connection.release = release;
    }
    const { data } = await this.#exec(message);
    if (readyStatus(data) === IDLE) {
      const release = connection.release;
      connection.release = undefined;
      release?.();
    }
    if (data.length > 0) onData(data);
    return data.length;
  }

  /** One frontend message; errors are PostgreSQL's to report to the client, in the reply. */
  #exec(message: Uint8Array) {
    return this.pglite.runExclusive(() => this.pglite.execProtocol(message, { throwOnError: false }));
  }

  #connection(handlerId: number): Connection {
    let connection = this.#connections.get(handlerId);
    if (!connection) {
      connection = { chain: Promise.resolve(), closed: false };
      this.#connections.set(handlerId, connection);
    }
    return connection;
  }
}

/** A simple-protocol Query message: 'Q', int32 length, the text, NUL. */
function simpleQuery(text: string): Uint8Array {
  const body = new TextEncoder().encode(`${text}\0`);
  const message = new Uint8Array(5 + body.length);
  message[0] = 0x51;
  new DataView(message.buffer).setInt32(1, 4 + body.length);
  message.set(body, 5);
  return message;
}

/**
 * The transaction status byte (I idle, T in a transaction, E failed transaction) of the last ReadyForQuery in a
 * reply, if it has one. A reply is a sequence of backend messages: type byte, int32 length (itself included), body.
 */
export function readyStatus(data: Uint8Array): number | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let status: number | undefined;
  for (let at = 0; at + 5 <= data.length; ) {
    const length = view.getInt32(at + 1);
    if (length < 4) break;
    if (data[at] === READY_FOR_QUERY && at + 5 < data.length) status = data[at + 5];
    at += 1 + length;
  }
  return status;
}
