// Hears credential changes made by any process (migration 0003's triggers NOTIFY the changed hash) and drops them
// from this process's credential cache (auth/credential-cache.ts). While it cannot hear them, caching is off:
// serving from memory is only safe when every change would reach us. The LISTEN itself (dedicated PostgreSQL connection
// with reconnects, or the PGlite session) is notification-listener.ts's.
import type { PGliteInterface } from '@electric-sql/pglite';
import type { Db } from './database.js';
import { createLogger, type Logger } from '../logger.js';
import {
  listenOnChannel,
  listenOnPostgresChannel,
  type ChannelListener,
  type ChannelListenerOptions,
  type NotificationSource,
} from './notification-listener.js';

export type { NotificationSource } from './notification-listener.js';

/** Must match the channel in migrations/0003_credential_notifications.ts. */
export const CREDENTIAL_CHANNEL = 'modelgate_credentials';
/** Payload meaning "forget every credential" (a user row changed). */
const ALL = '*';

export type CredentialListener = Pick<ChannelListener, 'close'>;

/** What this listener does to a cache of resolved credentials (auth/credential-cache.ts is one): the data layer only
 *  tells it what changed, and knows nothing of what it caches. */
export interface CredentialCacheControl {
  /** False when caching is configured off: nothing to keep fresh, so no listener. */
  readonly active: boolean;
  /** Off while changes could be missed (not yet listening, connection lost). */
  setEnabled(enabled: boolean): void;
  invalidate(hash: string): void;
  invalidateAll(): void;
}

function apply(cache: CredentialCacheControl, payload: string | undefined): void {
  if (payload === undefined || payload === '' || payload === ALL) cache.invalidateAll();
  else cache.invalidate(payload);
}

export interface PostgresListenerOptions {
  databaseUrl: string;
  cache: CredentialCacheControl;
  logger: Logger;
  /** Reconnect delays double from `initialDelayMs` up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/** The channel's options for this cache; the cache is off until LISTEN succeeds and whenever a change could be missed. */
function cacheOptions(
  cache: CredentialCacheControl,
  logger: Logger,
  delays: { initialDelayMs?: number; maxDelayMs?: number } = {},
): ChannelListenerOptions {
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
  cache: CredentialCacheControl,
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
  cache: CredentialCacheControl,
  logger: Logger,
): Promise<CredentialListener | undefined> {
  if (!cache.active) return undefined;
  if (source.databaseUrl === undefined && source.pglite === undefined) {
    logger.debug('no credential change notifications: credential cache relies on local invalidation and its TTL');
    return undefined;
  }
  return listenOnChannel(source, cacheOptions(cache, logger));
}
