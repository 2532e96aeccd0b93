// Readiness: not shutting down, the database answers, and every migration of this release is applied. One query
// (the migration names) proves the database reachable and the schema current at once.
import type { Lifecycle } from './lifecycle.js';

export type NotReadyReason = 'shutting_down' | 'database_unreachable' | 'migrations_pending';

export interface NotReady {
  reason: NotReadyReason;
  message: string;
  /** migrations_pending: the names not applied. */
  pending?: string[];
  /** database_unreachable: the error, for the log (never for the client). */
  cause?: unknown;
}

/** A probe must answer even when the database hangs: past this it reports the database unreachable. */
export const READY_DATABASE_TIMEOUT_MS = 2_000;

/**
 * The readiness check: undefined when ready, else why not. Probes that arrive while a database check is running
 * share it, so a database that hangs holds one query, not one per probe.
 */
export function readinessCheck(
  /** The migrations of this release the database lacks (db/migrate.ts pendingMigrations); throws when unreachable. */
  pendingMigrations: () => Promise<string[]>,
  lifecycle: Lifecycle,
  timeoutMs = READY_DATABASE_TIMEOUT_MS,
): () => Promise<NotReady | undefined> {
  let running: Promise<string[]> | undefined;
  return async () => {
    // Checked first: during a stop the database may be closing, and the answer is 503 either way.
    if (lifecycle.shuttingDown) return { reason: 'shutting_down', message: 'Not ready: shutting down' };
    running ??= pendingMigrations().finally(() => {
      running = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const pending = await Promise.race([running, timedOut]);
      if (pending === 'timeout') {
        return {
          reason: 'database_unreachable',
          message: `Not ready: the database did not answer within ${timeoutMs / 1000} s`,
        };
      }
      if (pending.length > 0) {
        return {
          reason: 'migrations_pending',
          message: `Not ready: ${pending.length} database migration(s) not applied`,
          pending,
        };
      }
      return undefined;
    } catch (cause) {
      return { reason: 'database_unreachable', message: 'Not ready: the database is unreachable', cause };
    } finally {
      clearTimeout(timer);
    }
  };
}
