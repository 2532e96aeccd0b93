// Starts the gateway: database (PostgreSQL or embedded PGlite) → migrations → app → listen; and stops it gracefully.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import { ConfigError, type Config } from './config.js';
import { ProviderKeyCache } from './routing/provider-key-cache.js';
import { listenForProviderKeyChanges } from './db/provider-key-notifications.js';
import { presetCacheOver } from './presets/load-presets.js';
import { listenForPresetChanges } from './presets/preset-notifications.js';
import { anyProviderKeyStored, listProviderKeys } from './repositories/provider-keys.js';
import { createLogger, type Logger } from './logger.js';
import { openServingDatabase } from './db/data-folder/open-data-folder.js';
import { migrateToLatest, pendingMigrations } from './db/migrate.js';
import type { Db } from './db/database.js';
import { LastUsedTracker } from './auth/last-used.js';
import { CredentialCache } from './auth/credential-cache.js';
import { listenWhereAvailable, type CredentialListener } from './db/credential-notifications.js';
import type { PGliteInterface } from '@electric-sql/pglite';
import { touchApiKeysLastUsed } from './repositories/api-keys.js';
import { createApp, DOOR_ERROR_SHAPES, type AppParts } from './app.js';
import { InFlight } from './http/in-flight.js';
import { ResponsesSockets } from './http/responses-websocket.js';
import { answerUpgradeRequests } from './http/upgrade-requests.js';
import { answerClientErrors } from './http/client-error-envelope.js';
import { ConnectionCloser } from './http/connection-closer.js';
import { clientTimeouts } from './http/client-timeouts.js';
import { awaitingContinue } from './http/read-json-body.js';
import { Lifecycle } from './health/lifecycle.js';
import { readinessCheck } from './health/check-readiness.js';
import { loadCatalog } from './catalog/load-catalog.js';
import { loadProviderConfigs } from './providers/registry.js';
import { HttpClient } from './providers/http-client.js';
import { PROVIDER_BUNDLES, providerParts } from './providers/bundles.js';
import type { ProviderBundle } from './providers/provider-bundle.js';
import { credentialRedactor, redactingAdapters } from './providers/redact-credentials.js';
import { redactingEmbeddingAdapters } from './providers/redact-embedding-credentials.js';
import { credentialValues } from './providers/credential-values.js';
import { createLimits } from './limits/create-limits.js';
import { freeGenerationCounts } from './repositories/generations.js';
import { SettlementQueue } from './billing/settlement-queue.js';
import { CreditLeases, DEFAULT_LEASE_OPTIONS } from './billing/credit-leases.js';
import { createCircuitBreaker } from './routing/create-circuit-breaker.js';
import { EndpointStats } from './routing/endpoint-stats.js';
import { createAffinityStore } from './routing/session-affinity.js';
import { leaseHolderId } from './billing/lease-holder.js';
import { GatewayMetrics } from './observability/metrics.js';
import { metricsRenderer } from './observability/cluster-metrics.js';
import { metricsEndpoint } from './observability/metrics-endpoint.js';
import { activeTracer } from './observability/tracer.js';
import { startOtlpTracing, type RunningTracing } from './observability/tracing-sdk.js';
import { requestSpans } from './observability/request-span.js';
import { UpstreamDrains } from './pipeline/upstream-drains.js';
import { composeAdmission } from './pipeline/admission/admit.js';
import { GenerationRetention } from './services/generation-retention.js';
import { StoredResponsePurge } from './services/stored-response-purge.js';
import { StoredResponses } from './services/stored-responses.js';
import { WebhookDeliverer } from './services/webhook-deliverer.js';
import { createResponseCache } from './pipeline/response-cache/create-response-cache.js';
import type { ResponseCache } from './pipeline/response-cache/response-cache.js';

/**
 * The gateway's parts, composed once here and handed on: the app (and through it each handler) takes what it uses.
 * Tests reach them on the running gateway, and may replace one (the breaker) for the requests that follow.
 */
export interface GatewayParts extends AppParts {
  /** Whether a graceful stop has begun (readiness turns 503). */
  lifecycle: Lifecycle;
  /** Prometheus metrics, when MODELGATE_METRICS_TOKEN makes them readable. */
  metrics?: GatewayMetrics;
}

/** Parts a test starts the gateway with instead of the ones built here (clock, adapters, HTTP client...). */
export type GatewayOverrides = Partial<GatewayParts>;

export interface RunningGateway {
  url: string;
  db: Db;
  parts: GatewayParts;
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
  database?: { db: Db; dialect?: string; url?: string; pglite?: PGliteInterface };
  overrides?: GatewayOverrides;
  /** The provider kinds the gateway is composed from (default: providers/bundles.ts); tests add a kind of their own. */
  bundles?: readonly ProviderBundle[];
}

export async function startGateway(config: Config, options: StartOptions = {}): Promise<RunningGateway> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const env = options.env ?? process.env;
  // Catalog and provider settings are checked before the database opens: bad configuration fails fast.
  const catalog = options.overrides?.catalog ?? loadCatalog(env);
  const bundles = options.bundles ?? PROVIDER_BUNDLES;
  const providers = options.overrides?.providers ?? loadProviderConfigs(env, catalog, bundles);
  const httpClient = new HttpClient({
    connectTimeoutMs: config.upstreamConnectTimeoutMs,
    headersTimeoutMs: config.upstreamHeadersTimeoutMs,
    bodyTimeoutMs: config.upstreamBodyTimeoutMs,
    maxInFlightPerOrigin: config.upstreamConcurrency,
    queueTimeoutMs: config.upstreamQueueTimeoutMs,
    http2: config.upstreamHttp2,
  });
  const database = options.database
    ? { ...options.database, dialect: options.database.dialect ?? 'external', close: async () => undefined }
    : {
        // Embedded: this process owns the folder and serves it to the CLI (src/db/data-folder/); a served folder fails
        // here.
        ...(await openServingDatabase({
          databaseUrl: config.databaseUrl,
          dataDir: config.dataDir,
          onStaleLock: (holder) =>
            logger.warn({ pid: holder.pid }, 'removed the data folder lock of a process that is gone'),
          // An idle pooled connection the server ended (a restart, a failover): the pool opens a new one when needed.
          onIdleClientError: (err) => logger.warn({ err }, 'database connection lost; the pool reconnects'),
        })),
        url: config.databaseUrl,
      };
  let credentialListener: CredentialListener | undefined;
  let providerKeyListener: CredentialListener | undefined;
  let presetListener: CredentialListener | undefined;
  let leases: CreditLeases | undefined;
  let limits: Awaited<ReturnType<typeof createLimits>> | undefined;
  let tracing: RunningTracing | undefined;
  let responseCache: ResponseCache | undefined;
  try {
    await migrateToLatest(database.db);
    // Stored provider keys cannot be used, nor new ones stored, without the master key: refuse to run half-working.
    if (config.encryptionKey === undefined && (await anyProviderKeyStored(database.db)))
      throw new ConfigError(
        'MODELGATE_ENCRYPTION_KEY',
        "is not set, but organizations' own provider keys are stored encrypted under it: set it to the master key they were stored with (docs/provider-keys.md)",
      );
    // Metrics exist only when they can be read (MODELGATE_METRICS_TOKEN): otherwise nothing is counted at all.
    let metrics: GatewayMetrics | undefined;
    limits = await createLimits(config, freeGenerationCounts(database.db), logger, {
      redisFallback: (operation) => metrics?.redisFallback(operation),
      redisUp: (up) => metrics?.redisUp(up),
    });
    const composed = {
      config,
      db: database.db,
      logger,
      lastUsed: new LastUsedTracker((ids, at) => touchApiKeysLastUsed(database.db, ids, at), logger),
      credentials: new CredentialCache({ ttlMs: config.credentialCacheTtlMs }),
      catalog,
      providers,
      // Translated adapters, native back doors, embeddings and token counters: the provider bundles' (bundles.ts).
      ...providerParts(bundles),
      http: httpClient,
      limiter: limits.limiter,
      settlements: new SettlementQueue(database.db, logger),
      leases: new CreditLeases(database.db, logger, { ...DEFAULT_LEASE_OPTIONS, holder: leaseHolderId() }),
      freeRequests: limits.freeRequests,
      // Every path that reaches a model is admitted by this one step, its rules in their order (admission-rules.ts).
      admission: composeAdmission(),
      now: () => new Date(),
      breaker: createCircuitBreaker(config.breaker, limits.redis),
      endpointStats: new EndpointStats(),
      affinity: config.affinity.ttlMs > 0 ? createAffinityStore(config.affinity, limits.redis) : undefined,
      lifecycle: new Lifecycle(),
      drains: new UpstreamDrains(),
      providerKeys: new ProviderKeyCache({
        load: (organizationId) => listProviderKeys(database.db, organizationId),
        keys: [config.encryptionKey, ...config.previousEncryptionKeys],
        ttlMs: config.credentialCacheTtlMs,
      }),
      presets: presetCacheOver(database.db, { ttlMs: config.credentialCacheTtlMs }),
      ...options.overrides,
      responseCache: options.overrides?.responseCache ?? createResponseCache(config, logger),
    };
    responseCache = composed.responseCache;
    const storedResponses =
      config.responseRetentionDays > 0 ? new StoredResponses(database.db, config.responseRetentionDays) : undefined;
    const parts: GatewayParts = {
      readiness: readinessCheck(() => pendingMigrations(database.db), composed.lifecycle),
      storedResponses,
      responseState: { stored: storedResponses?.memory, logger },
      ...composed,
    };
    // Test adapters included: no upstream error text reaches a client with a configured credential in it, nor does the
    // native lane's (which passes the vendor's own error events on).
    parts.redact = credentialRedactor(
      credentialValues(
        env,
        parts.providers.list().map((p) => p.apiKey),
      ),
    );
    parts.adapters = redactingAdapters(parts.adapters, parts.redact);
    parts.embeddingAdapters = redactingEmbeddingAdapters(parts.embeddingAdapters, parts.redact);
    credentialListener = await listenWhereAvailable(
      { db: database.db, databaseUrl: database.url, pglite: database.pglite },
      parts.credentials,
      logger,
    );
    if (parts.providerKeys)
      providerKeyListener = await listenForProviderKeyChanges(
        { db: database.db, databaseUrl: database.url, pglite: database.pglite },
        parts.providerKeys,
        logger,
      );
    if (parts.presets)
      presetListener = await listenForPresetChanges(
        { db: database.db, databaseUrl: database.url, pglite: database.pglite },
        parts.presets,
        logger,
      );
    // Other instances recall this one's unused credit leases (and it theirs) over NOTIFY.
    leases = parts.leases;
    await leases.listen({ db: database.db, databaseUrl: database.url, pglite: database.pglite });
    if (config.metricsToken) {
      metrics = new GatewayMetrics(
        {
          settlementQueueDepth: () => parts.settlements.size,
          creditLeases: () => parts.leases.size,
          upstreamLoad: () => parts.http.load(),
          responseCacheBytes: () => parts.responseCache.store.bytes(),
        },
        { redis: limits.store === 'redis', tracing: config.tracing },
      );
      parts.responseCache.observer = metrics;
      if (limits.store === 'redis') metrics.redisUp(!limits.isDown());
      parts.metrics = metrics;
      httpClient.observer = metrics;
    }
    // Traces only when exported (OTEL_EXPORTER_OTLP_ENDPOINT), or when a test installed its own tracer.
    if (config.tracing && activeTracer() === undefined)
      tracing = await startOtlpTracing(env, {
        protocol: config.tracesProtocol,
        logger,
        droppedSpans: (count) => metrics?.droppedSpans(count),
      });
    const tracer = activeTracer();
    // The request span is annotated by its GenerationRun (request-span.ts), metrics from every queued record, and the
    // response cache learns whether an answer it records succeeded.
    const recorded = metrics;
    const cache = parts.responseCache;
    parts.settlements.observer = recorded
      ? (record) => {
          recorded.observeGeneration(record);
          cache.observe(record);
        }
      : (record) => cache.observe(record);
    const inFlight = new InFlight();
    const sockets = new ResponsesSockets(config.bodyLimitBytes);
    const app = await createApp(parts, { sockets, beginTurn: () => inFlight.begin() });
    parts.leases.start();
    // Ahead of the error envelope: the span sees the final status of every answer, errors included.
    if (tracer) app.middleware.unshift(requestSpans(tracer));
    if (metrics && config.metricsToken)
      app.middleware.unshift(metricsEndpoint(config.metricsToken, metricsRenderer(metrics.registry), logger));
    app.middleware.unshift(inFlight.middleware());
    const handle = app.callback();
    const server = http.createServer(clientTimeouts(config), handle);
    const connections = new ConnectionCloser(server);
    // A client that sends `Expect: 100-continue` waits for the go-ahead before its body: the body reader gives it only
    // once the request passed routing and authentication (read-json-body.ts), not Node on arrival.
    server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => {
      awaitingContinue.add(res);
      void handle(req, res);
    });
    answerClientErrors(server, logger, DOOR_ERROR_SHAPES);
    answerUpgradeRequests(server, handle);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    // The heap limit shows whether the process was started with the node options of src/cli/serve-node-options.ts;
    // the providers, which upstreams have a key (their ids only, never the key), so a newcomer sees why a model is 503.
    const configured = providers
      .list()
      .filter((provider) => provider.apiKey !== undefined)
      .map((provider) => provider.id);
    logger.info(
      {
        url,
        database: database.dialect,
        database_socket: 'socket' in database ? database.socket : undefined,
        limits: limits.store,
        metrics: metrics !== undefined,
        tracing: tracer !== undefined,
        heap_limit_mb: Math.round(getHeapStatistics().heap_size_limit / 2 ** 20),
        providers: configured,
      },
      'modelgate listening',
    );
    if (configured.length === 0) {
      logger.warn(
        'no provider has an API key (<PROVIDER>_API_KEY, docs/configuration.md): every model answers 503 until one is set',
      );
    }
    // Started once serving, so a failed start leaves no pruning behind.
    const retention =
      config.generationRetentionDays === undefined
        ? undefined
        : new GenerationRetention(database.db, logger, config.generationRetentionDays);
    retention?.start();
    const responsePurge = storedResponses ? new StoredResponsePurge(database.db, logger) : undefined;
    responsePurge?.start();
    // Off the request path: events written by requests are sent from here, with retries, by this process or another.
    const webhooks = config.webhooks.delivery
      ? new WebhookDeliverer({
          db: database.db,
          logger,
          masterKey: [config.encryptionKey, ...config.previousEncryptionKeys],
          timeoutMs: config.webhooks.timeoutMs,
          retentionDays: config.webhooks.retentionDays,
          allowPrivateDestinations: config.webhooks.allowPrivateDestinations,
        })
      : undefined;
    webhooks?.start();

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        // Readiness turns 503 first, while requests in flight still finish.
        parts.lifecycle.beginShutdown();
        logger.info({ in_flight: inFlight.size }, 'shutting down');
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        connections.closeWhenIdle();
        // Open WebSockets end once their turn in progress has (counted in flight below); clients reconnect elsewhere.
        const socketsClosed = sockets.close();
        if (!(await inFlight.drained(config.shutdownGraceSeconds * 1000))) {
          logger.warn(
            { in_flight: inFlight.size, draining: parts.drains.size },
            'grace period over: closing open connections',
          );
          // First: streams read on after their client left are cut (and billed the stated estimate), and those whose
          // client the next line disconnects are cut at once instead of drained, so each settles before the
          // database closes.
          parts.drains.close();
          server.closeAllConnections();
          sockets.terminate();
          await inFlight.drained(10_000);
        }
        await socketsClosed;
        await stopped;
        await retention?.stop();
        await responsePurge?.stop();
        await webhooks?.stop();
        // Settlements wait for a database that is away, but a stop does not wait forever: past the grace period those
        // still waiting are logged whole, for replay.
        await parts.settlements.drain(config.shutdownGraceSeconds * 1000);
        // After the last settlement paid out of them: the leases go back to the accounts. With the database away they
        // cannot: other instances reclaim them once the lease TTL has passed, as after a crash.
        await parts.leases
          .close()
          .catch((err: unknown) =>
            logger.warn({ err }, 'could not give credit leases back; they are reclaimed after the lease TTL'),
          );
        await parts.lastUsed.flush();
        await limits?.close();
        await parts.responseCache.close();
        await tracing?.shutdown();
        await credentialListener?.close();
        await providerKeyListener?.close();
        await presetListener?.close();
        await httpClient.close();
        await database.close();
        logger.info('stopped');
      })());
    return { url, db: database.db, parts, server, close };
  } catch (err) {
    await providerKeyListener?.close();
    await presetListener?.close();
    await leases?.close().catch(() => undefined);
    await limits?.close();
    await responseCache?.close();
    await tracing?.shutdown();
    await credentialListener?.close();
    await httpClient.close();
    await database.close();
    throw err;
  }
}
