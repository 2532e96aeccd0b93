// Starts the gateway: database (PostgreSQL or embedded PGlite) → migrations → app → listen; and stops it gracefully.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { openDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { LastUsedTracker } from './auth/last-used.js';
import { touchApiKeysLastUsed } from './repositories/api-keys.js';
import { createApp } from './app.js';
import { InFlight } from './http/in-flight.js';
import type { Deps } from './deps.js';
import { loadCatalog } from './catalog/load-catalog.js';
import { loadProviderConfigs } from './providers/registry.js';
import { HttpClient } from './providers/http-client.js';
import { createOpenAICompatibleAdapter } from './providers/openai-compatible/index.js';
import { createAnthropicAdapter } from './providers/anthropic/index.js';
import { createGeminiAdapter } from './providers/gemini/index.js';
import { TokenBucketRateLimiter } from './limits/rate-limiter.js';
import { FreeRequestCounter } from './limits/free-requests.js';
import { countFreeGenerationsSince } from './repositories/generations.js';
import { SettlementQueue } from './billing/settlement-queue.js';
import { ReservationBatcher } from './billing/reservation-batcher.js';

export interface RunningGateway {
  url: string;
  deps: Deps;
  server: http.Server;
  /** Stop accepting, let in-flight requests finish (up to the grace period), flush writes, close the database. */
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** Environment for catalog and provider settings (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** An already opened database (tests share one per file); the gateway then leaves closing it to the caller. */
  database?: { db: Deps['db']; dialect?: string };
  /** Overrides for tests (clock, providers, ...). */
  overrides?: Partial<Deps>;
}

export async function startGateway(config: Config, options: StartOptions = {}): Promise<RunningGateway> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const env = options.env ?? process.env;
  // Catalog and provider settings are checked before the database opens: bad configuration fails fast.
  const catalog = options.overrides?.catalog ?? loadCatalog(env);
  const providers = options.overrides?.providers ?? loadProviderConfigs(env, catalog);
  const httpClient = new HttpClient({
    connectTimeoutMs: config.upstreamConnectTimeoutMs,
    headersTimeoutMs: config.upstreamHeadersTimeoutMs,
    bodyTimeoutMs: config.upstreamBodyTimeoutMs,
  });
  const database = options.database
    ? { db: options.database.db, dialect: options.database.dialect ?? 'external', close: async () => undefined }
    : await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(database.db);
    const deps: Deps = {
      config,
      db: database.db,
      logger,
      lastUsed: new LastUsedTracker((ids, at) => touchApiKeysLastUsed(database.db, ids, at), logger),
      catalog,
      providers,
      adapters: { 'openai-compatible': createOpenAICompatibleAdapter(), anthropic: createAnthropicAdapter(), gemini: createGeminiAdapter() },
      http: httpClient,
      limiter: new TokenBucketRateLimiter(),
      settlements: new SettlementQueue(database.db, logger),
      reservations: new ReservationBatcher(database.db),
      freeRequests: new FreeRequestCounter((keyId, since) => countFreeGenerationsSince(database.db, keyId, since)),
      now: () => new Date(),
      ...options.overrides,
    };
    const app = await createApp(deps);
    const inFlight = new InFlight();
    app.middleware.unshift(inFlight.middleware());
    const server = http.createServer(app.callback());
    // Long generations stream for minutes: Node's default request timeout would cut them.
    server.requestTimeout = 0;
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    logger.info({ url, database: database.dialect }, 'modelgate listening');

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        logger.info({ in_flight: inFlight.size }, 'shutting down');
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        if (!(await inFlight.drained(config.shutdownGraceSeconds * 1000))) {
          logger.warn({ in_flight: inFlight.size }, 'grace period over: closing open connections');
          server.closeAllConnections();
          await inFlight.drained(10_000);
        }
        // Connections that carried the last responses are idle now; without this, close() waits for keep-alive expiry.
        server.closeIdleConnections();
        await stopped;
        await deps.settlements.drain();
        await deps.lastUsed.flush();
        await httpClient.close();
        await database.close();
        logger.info('stopped');
      })());
    return { url, deps, server, close };
  } catch (err) {
    await httpClient.close();
    await database.close();
    throw err;
  }
}
