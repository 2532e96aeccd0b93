// A database that cannot be reached, or that dropped the connection a statement was on (a restart, a failover, the
// network): not the statement's fault, and over once the database is back. The PostgreSQL dialect marks these where
// the driver reports them, so the HTTP layer can answer 503 with Retry-After and the settlement queue can wait for the
// database instead of giving a settlement up.

export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`The database is unavailable: ${(cause as Error | undefined)?.message ?? String(cause)}`, { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/** Socket errors of a connection that could not be made or was lost. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOENT',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTCONN',
]);

/**
 * SQLSTATEs of a server that is going away or not taking connections: admin_shutdown (a fast shutdown or restart),
 * crash_shutdown, cannot_connect_now (starting up, shutting down), too_many_connections. Class 08 is connection
 * exceptions.
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/** What `pg` says of a connection that ended, broke or never opened (its errors carry no code for these). */
const DRIVER_MESSAGES =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout/i;

/** Whether a driver error means the database is out of reach rather than that the statement failed. */
export function isConnectionFailure(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || /^08...$/.test(code)))
    return true;
  return DRIVER_MESSAGES.test((err as Error | null)?.message ?? '');
}

/** The driver's error, marked as DatabaseUnavailableError when it is a connection failure. */
export function markUnavailable(err: unknown): unknown {
  return isConnectionFailure(err) && !(err instanceof DatabaseUnavailableError)
    ? new DatabaseUnavailableError(err)
    : err;
}
