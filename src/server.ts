// Starts the gateway: database (PostgreSQL or embedded PGlite) → migrations → app → listen; and stops it gracefully.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { openDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { LastUsedTracker } from './auth/last-used.js';
import { CredentialCache } from './auth/credential-cache.js';
import { listenWhereAvailable, type CredentialListener } from './db/credential-notifications.js';
import type { PGliteInterface } from '@electric-sql/pglite';
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
import { CreditLeases, DEFAULT_LEASE_OPTIONS } from './billing/credit-leases.js';
import { InMemoryCircuitBreaker } from './routing/circuit-breaker.js';
import { EndpointStats } from './routing/endpoint-stats.js';
import { leaseHolderId } from './billing/lease-holder.js';

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
  /**
   * An already opened database (tests share one per file); the gateway then leaves closing it to the caller.
   * `url` (PostgreSQL) or `pglite` (embedded) let it hear credential changes of other connections; without either
   * its credential cache relies on in-process invalidation and the TTL.
   */
  database?: { db: Deps['db']; dialect?: string; url?: string; pglite?: PGliteInterface };
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
    ? { ...options.database, dialect: options.database.dialect ?? 'external', close: async () => undefined }
    : { ...(await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })), url: config.databaseUrl };
  let credentialListener: CredentialListener | undefined;
  try {
    await migrateToLatest(database.db);
    const deps: Deps = {
      config,
      db: database.db,
      logger,
      lastUsed: new LastUsedTracker((ids, at) => touchApiKeysLastUsed(database.db, ids, at), logger),
      credentials: new CredentialCache({ ttlMs: config.credentialCacheTtlMs }),
      catalog,
      providers,
      adapters: { 'openai-compatible': createOpenAICompatibleAdapter(), anthropic: createAnthropicAdapter(), gemini: createGeminiAdapter() },
      http: httpClient,
      limiter: new TokenBucketRateLimiter(),
      settlements: new SettlementQueue(database.db, logger),
      leases: new CreditLeases(database.db, logger, { ...DEFAULT_LEASE_OPTIONS, holder: leaseHolderId() }),
      freeRequests: new FreeRequestCounter((keyId, since) => countFreeGenerationsSince(database.db, keyId, since)),
      now: () => new Date(),
      breaker: new InMemoryCircuitBreaker(config.breaker),
      endpointStats: new EndpointStats(),
      ...options.overrides,
    };
    credentialListener = await listenWhereAvailable(
      { db: database.db, databaseUrl: database.url, pglite: database.pglite },
      deps.credentials,
      logger,
    );
    const app = await createApp(deps);
    deps.leases.start();
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
    // The heap limit shows whether the process was started with the node options of src/cli/serve-node-options.ts.
    logger.info({ url, database: database.dialect, heap_limit_mb: Math.round(getHeapStatistics().heap_size_limit / 2 ** 20) }, 'modelgate listening');

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
        // After the last settlement paid out of them: the leases go back to the accounts.
        await deps.leases.close();
        await deps.lastUsed.flush();
        await credentialListener?.close();
        await httpClient.close();
        await database.close();
        logger.info('stopped');
      })());
    return { url, deps, server, close };
  } catch (err) {
    await credentialListener?.close();
    await httpClient.close();
    await database.close();
    throw err;
  }
}
