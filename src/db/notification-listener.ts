// LISTEN on one channel for the whole life of a process, with the state "can I hear it right now?" exposed: what is
// cached or held because of a channel (credit leases) is only safe while every message on it would reach us.
// PostgreSQL: one dedicated connection (LISTEN belongs to a session, a pooled client is handed to other queries),
// reconnected with backoff. Embedded PGlite: one session for everything, so it hears its own NOTIFYs.
import { sql } from 'kysely';
import pg from 'pg';
import type { PGliteInterface } from '@electric-sql/pglite';
import type { Db } from './database.js';
import type { Logger } from '../logger.js';

export interface NotificationSource {
  db: Db;
  /** PostgreSQL: the URL the pool was opened with. */
  databaseUrl?: string;
  /** Embedded: the PGlite instance behind `db`. */
  pglite?: Pick<PGliteInterface, 'onNotification'>;
}

export interface ChannelListenerOptions {
  channel: string;
  onPayload: (payload: string) => void;
  /** Called with false when a message could have been missed (connection lost), with true once listening again. */
  onListening: (listening: boolean) => void;
  logger: Logger;
  /** Reconnect delays double from `initialDelayMs` up to `maxDelayMs` (PostgreSQL). */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

export interface ChannelListener {
  readonly listening: boolean;
  close(): Promise<void>;
}

/**
 * Starts whichever listener the database allows; undefined when it allows none (a database handed over without its
 * URL or instance). Resolves after the first attempt, successful or not: start-up is not held hostage by it.
 */
export async function listenOnChannel(
  source: NotificationSource,
  options: ChannelListenerOptions,
): Promise<ChannelListener | undefined> {
  if (source.databaseUrl !== undefined) return listenOnPostgresChannel(source.databaseUrl, options);
  if (source.pglite !== undefined) return listenInPglite(source.db, source.pglite, options);
  return undefined;
}

/** PostgreSQL: a dedicated connection, reconnected with backoff; resolves after the first attempt. */
export async function listenOnPostgresChannel(
  databaseUrl: string,
  options: ChannelListenerOptions,
): Promise<ChannelListener> {
  const listener = new PostgresChannelListener(databaseUrl, options);
  await listener.connect();
  return listener;
}

async function listenInPglite(
  db: Db,
  pglite: Pick<PGliteInterface, 'onNotification'>,
  options: ChannelListenerOptions,
): Promise<ChannelListener> {
  const off = pglite.onNotification((channel, payload) => {
    if (channel === options.channel) options.onPayload(payload);
  });
  try {
    // Through Kysely, so it cannot land inside another caller's open transaction on the single session.
    await sql.raw(`listen ${options.channel}`).execute(db);
  } catch (err) {
    off();
    throw err;
  }
  options.onListening(true);
  let closed = false;
  return {
    get listening() {
      return !closed;
    },
    // No UNLISTEN: the instance may be shared (tests, other listeners on the channel) or closing anyway.
    close: async () => {
      closed = true;
      off();
    },
  };
}

class PostgresChannelListener implements ChannelListener {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private failures = 0;
  listening = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly options: ChannelListenerOptions,
  ) {}

  async connect(): Promise<void> {
    if (this.closed) return;
    const { channel, logger } = this.options;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      connectionTimeoutMillis: 10_000,
      // An idle LISTEN connection must notice a dead peer, or it would wait for notifications that never come.
      keepAlive: true,
    });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === channel) this.options.onPayload(message.payload ?? '');
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (err) {
      this.lost(client, err);
      return;
    }
    if (this.closed || this.client !== client) return;
    this.listening = true;
    this.options.onListening(true);
    if (this.failures > 0) logger.info({ channel }, 'notifications restored');
    this.failures = 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private lost(client: pg.Client, err: unknown): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    const wasListening = this.listening;
    this.listening = false;
    if (wasListening) this.options.onListening(false);
    client.removeAllListeners('notification');
    client.on('error', () => undefined); // late socket errors of a dropped client must not crash the process
    void client.end().catch(() => undefined);
    const initial = this.options.initialDelayMs ?? 500;
    const delay = Math.min(initial * 2 ** this.failures, this.options.maxDelayMs ?? 30_000);
    this.failures += 1;
    this.options.logger.warn(
      { err, channel: this.options.channel, retry_in_ms: delay },
      'notifications lost; listening again soon',
    );
    this.timer = setTimeout(() => void this.connect(), delay);
    this.timer.unref();
  }
}
