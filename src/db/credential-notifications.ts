// Hears credential changes made by any process (migration 0003's triggers NOTIFY the changed hash) and drops them
// from this process's CredentialCache. While it cannot hear them, caching is off: serving from memory is only
// safe when every change would reach us. The LISTEN itself (dedicated PostgreSQL connection with reconnects, or
// the PGlite session) is notification-listener.ts's.
import type { PGliteInterface } from '@electric-sql/pglite';
import type { CredentialCache } from '../auth/credential-cache.js';
import type { Db } from './database.js';
import { createLogger, type Logger } from '../logger.js';
import { listenOnChannel, listenOnPostgresChannel, type ChannelListener, type ChannelListenerOptions, type NotificationSource } from './notification-listener.js';

export type { NotificationSource } from './notification-listener.js';

/** Must match the channel in migrations/0003_credential_notifications.ts. */
export const CREDENTIAL_CHANNEL = 'modelgate_credentials';
/** Payload meaning "forget every credential" (a user row changed). */
const ALL = '*';

export type CredentialListener = Pick<ChannelListener, 'close'>;

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

/** The channel's options for this cache; the cache is off until LISTEN succeeds and whenever a change could be missed. */
function cacheOptions(cache: CredentialCache, logger: Logger, delays: { initialDelayMs?: number; maxDelayMs?: number } = {}): ChannelListenerOptions {
  cache.setEnabled(false);
  return {
    channel: CREDENTIAL_CHANNEL,
    onPayload: (payload) => apply(cache, payload),
    // Changes made while we were not listening were never announced to us.
    onListening: (listening) => cache.setEnabled(listening),
    logger,
    ...delays,
  };
}

/**
 * One dedicated connection that LISTENs for the whole life of the gateway. Resolves after the first attempt,
 * successful or not, so start-up is not held hostage by it; until LISTEN succeeds every lookup goes to the database.
 */
export async function listenForCredentialChanges(options: PostgresListenerOptions): Promise<CredentialListener> {
  const { databaseUrl, cache, logger, initialDelayMs, maxDelayMs } = options;
  return listenOnPostgresChannel(databaseUrl, cacheOptions(cache, logger, { initialDelayMs, maxDelayMs }));
}

/**
 * Embedded PGlite: the gateway owns its data folder and other processes reach it through it, so every change passes
 * this instance; the triggers NOTIFY and the session hears them.
 */
export async function listenForCredentialChangesInPglite(
  db: Db,
  pglite: Pick<PGliteInterface, 'onNotification'>,
  cache: CredentialCache,
): Promise<CredentialListener> {
  const listener = await listenOnChannel({ db, pglite }, cacheOptions(cache, createLogger('silent')));
  return listener!; // with an instance there is always one
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
  if (source.databaseUrl === undefined && source.pglite === undefined) {
    logger.debug('no credential change notifications: credential cache relies on local invalidation and its TTL');
    return undefined;
  }
  return listenOnChannel(source, cacheOptions(cache, logger));
}
