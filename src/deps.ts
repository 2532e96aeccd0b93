// Everything a handler may use, built once at start (server.ts) and injected, so tests can swap any part.
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Logger } from './logger.js';
import type { LastUsedTracker } from './auth/last-used.js';
import type { CredentialCache } from './auth/credential-cache.js';
import type { Catalog } from './catalog/catalog.js';
import type { ProviderRegistry } from './providers/registry.js';
import type { ProviderAdapter, ProviderConfig } from './providers/adapter.js';
import type { HttpClient } from './providers/http-client.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import type { FreeRequestAllowance } from './limits/free-requests.js';
import type { SettlementQueue } from './billing/settlement-queue.js';
import type { CreditLeases } from './billing/credit-leases.js';
import type { CircuitBreaker } from './routing/circuit-breaker.js';
import type { EndpointStats } from './routing/endpoint-stats.js';
import type { Lifecycle } from './health/lifecycle.js';
import type { GatewayMetrics } from './observability/metrics.js';
import type { UpstreamDrains } from './pipeline/upstream-drains.js';

export interface Deps {
  config: Config;
  db: Db;
  logger: Logger;
  lastUsed: LastUsedTracker;
  /** Resolved credentials by hash; invalidate(hash) whenever a credential row changes in this process. */
  credentials: CredentialCache;
  catalog: Catalog;
  providers: ProviderRegistry;
  /** Adapter per API kind; a kind without one is answered 503. */
  adapters: Partial<Record<ProviderConfig['kind'], ProviderAdapter>>;
  http: HttpClient;
  limiter: RateLimiter;
  freeRequests: FreeRequestAllowance;
  settlements: SettlementQueue;
  leases: CreditLeases;
  now: () => Date;
  /** Per-endpoint circuit breaker (routing skips endpoints it holds open). */
  breaker: CircuitBreaker;
  /** Observed latency and throughput per endpoint (provider.sort). */
  endpointStats: EndpointStats;
  /** Whether a graceful stop has begun (readiness turns 503). */
  lifecycle: Lifecycle;
  /** Streams read on after their client left (hidden reasoning); a graceful stop cuts them. */
  drains: UpstreamDrains;
  /** Prometheus metrics, when MODELGATE_METRICS_TOKEN makes them readable. */
  metrics?: GatewayMetrics;
}
