// Hears credential changes made by any process (migration 0003's triggers NOTIFY the changed hash) and drops them
// from this process's CredentialCache. While it cannot hear them, caching is off: serving from memory is only
// safe when every change would reach us.
import { sql } from 'kysely';
import pg from 'pg';
import type { PGliteInterface } from '@electric-sql/pglite';
import type { CredentialCache } from '../auth/credential-cache.js';
import type { Db } from './database.js';
import type { Logger } from '../logger.js';

/** Must match the channel in migrations/0003_credential_notifications.ts. */
export const CREDENTIAL_CHANNEL = 'modelgate_credentials';
/** Payload meaning "forget every credential" (a user row changed). */
const ALL = '*';

export interface CredentialListener {
  close(): Promise<void>;
}

function apply(cache: CredentialCache, payload: string | undefined): void {
  if (payload === undefined || payload === '' || payload === ALL) cache.invalidateAll();
  else cache.invalidate(payload);
}

export interface PostgresListenerOptions {
  databaseUrl: string;
  cache: CredentialCache;
  logger: Logger;
  /** Reconnect delays double from `initialDelayMs` up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * One dedicated connection (not from the pool: a pooled client is handed to other queries, and LISTEN belongs to
 * a session) that LISTENs for the whole life of the gateway. Resolves after the first attempt, successful or not,
 * so start-up is not held hostage by it; until LISTEN succeeds every lookup goes to the database.
 */
export async function listenForCredentialChanges(options: PostgresListenerOptions): Promise<CredentialListener> {
  const listener = new PostgresCredentialListener(options);
  await listener.connect();
  return listener;
}

class PostgresCredentialListener implements CredentialListener {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private failures = 0;

  constructor(private readonly options: PostgresListenerOptions) {
    options.cache.setEnabled(false);
  }

  async connect(): Promise<void> {
    if (this.closed) return;
    const { cache, logger } = this.options;
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      connectionTimeoutMillis: 10_000,
      // An idle LISTEN connection must notice a dead peer, or it would wait for notifications that never come.
      keepAlive: true,
    });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === CREDENTIAL_CHANNEL) apply(cache, message.payload);
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`listen ${CREDENTIAL_CHANNEL}`);
    } catch (err) {
      this.lost(client, err);
      return;
    }
    if (this.closed || this.client !== client) return;
    // Changes made while we were not listening were never announced to us.
    cache.setEnabled(true);
    if (this.failures > 0) logger.info('credential change notifications restored: credential cache on');
    this.failures = 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private lost(client: pg.Client, err: unknown): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.options.cache.setEnabled(false);
    client.removeAllListeners('notification');
    client.on('error', () => undefined); // late socket errors of a dropped client must not crash the process
    void client.end().catch(() => undefined);
    const initial = this.options.initialDelayMs ?? 500;
    const delay = Math.min(initial * 2 ** this.failures, this.options.maxDelayMs ?? 30_000);
    this.failures += 1;
    this.options.logger.warn(
      { err, retry_in_ms: delay },
      'credential change notifications lost: credential cache off until LISTEN succeeds again',
    );
    this.timer = setTimeout(() => void this.connect(), delay);
    this.timer.unref();
  }
}

/**
 * Embedded PGlite: the gateway is the only process on its data folder, so every change is made in this process;
 * the triggers still NOTIFY, which covers writes that bypass the handlers (tests, tools sharing the instance).
 * LISTEN goes through Kysely so it cannot land inside another caller's open transaction on the single session.
 */
export async function listenForCredentialChangesInPglite(
  db: Db,
  pglite: Pick<PGliteInterface, 'onNotification'>,
  cache: CredentialCache,
): Promise<CredentialListener> {
  const off = pglite.onNotification((channel, payload) => {
    if (channel === CREDENTIAL_CHANNEL) apply(cache, payload);
  });
  try {
    await sql.raw(`listen ${CREDENTIAL_CHANNEL}`).execute(db);
  } catch (err) {
    off();
    throw err;
  }
  // No UNLISTEN on close: the instance may be shared (tests) or closing anyway, and one more listener is harmless.
  return { close: async () => off() };
}

export interface NotificationSource {
  db: Db;
  /** PostgreSQL: the URL the pool was opened with. */
  databaseUrl?: string;
  /** Embedded: the PGlite instance behind `db`. */
  pglite?: Pick<PGliteInterface, 'onNotification'>;
}

/**
 * Starts whichever listener the database allows. Without either (a database handed over without its URL), there is
 * none: the cache then relies on in-process invalidation and its TTL.
 */
export async function listenWhereAvailable(
  source: NotificationSource,
  cache: CredentialCache,
  logger: Logger,
): Promise<CredentialListener | undefined> {
  if (!cache.active) return undefined;
  if (source.databaseUrl !== undefined) return listenForCredentialChanges({ databaseUrl: source.databaseUrl, cache, logger });
  if (source.pglite !== undefined) return listenForCredentialChangesInPglite(source.db, source.pglite, cache);
  logger.debug('no credential change notifications: credential cache relies on local invalidation and its TTL');
  return undefined;
}
