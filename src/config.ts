// Gateway configuration, read once from the environment. Invalid values fail at start with the variable's name.
import path from 'node:path';
import { usdToNanos } from './core/money.js';
import { DEFAULT_PASS_QUOTA_USD, MAX_PASS_QUOTA_NANOS, type PassQuotaConfig } from './pass/plan.js';
import { parseMasterKey, type MasterKey } from './auth/secret-box.js';
import { isSupportedCountry } from 'libphonenumber-js';
import { parseGuardrailPatterns, type GuardrailSettings } from './guardrails/guardrail-settings.js';

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  logLevel: string;
  catalogPath?: string;
  /** What an omitted `stream` means when the Accept header does not decide (ARCHITECTURE.md "stream default"). */
  streamDefault: boolean;
  /** Largest accepted body of the generation operations, bytes (the others have a fixed cap: src/http/body-limits.ts). */
  bodyLimitBytes: number;
  /**
   * How long a client has to send its request line and headers, and its whole request (body included), ms. They bound
   * what a slow or stalled client holds; the answer (a stream of minutes) is not covered by either.
   */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Seconds without upstream bytes before an SSE keep-alive comment is sent. */
  keepAliveSeconds: number;
  /**
   * Responses WebSocket mode: seconds between pings (a socket whose client did not answer the last one is dropped),
   * and seconds a socket may stay open with no turn before the gateway closes it.
   */
  websocketPingSeconds: number;
  websocketIdleSeconds: number;
  /** Upstream timeouts, milliseconds. */
  upstreamConnectTimeoutMs: number;
  upstreamHeadersTimeoutMs: number;
  upstreamBodyTimeoutMs: number;
  /**
   * Requests in flight to one upstream origin at most (0: no cap), how long a request past it waits for a slot before
   * a 503 (ms), and whether TLS upstreams are offered HTTP/2 (docs/concurrency.md).
   */
  upstreamConcurrency: number;
  upstreamQueueTimeoutMs: number;
  upstreamHttp2: boolean;
  /** Seconds SIGTERM waits for in-flight requests before closing connections. */
  shutdownGraceSeconds: number;
  /**
   * Whether every operation's request validator is compiled at start (the first request of each operation then pays
   * nothing) or on that operation's first request (a start that is seconds cheaper, for short-lived processes).
   */
  precompileValidators: boolean;
  /**
   * How long a stream whose model may reason invisibly is still read after its client left, so that the provider's
   * own usage (hidden reasoning included) is billed, ms; 0 = abort the upstream at once (docs/metering.md).
   */
  drainOnAbortMs: number;
  /**
   * Per-account limits, shared by all the account's keys; a key's own (modelgate keys limits) can only tighten them.
   * 0 disables the limit.
   */
  rateLimitRpm: number;
  rateLimitTpm: number;
  freeRequestsPerDay: number;
  /** Active (not deleted) API keys one account may hold, management keys included; creating one more is 409. */
  maxKeysPerAccount: number;
  /**
   * How long a resolved credential is served from memory, ms; 0 = ask the database on every request. Deletions and
   * limit changes still apply at once (invalidation); this bounds staleness only if a change notification is lost.
   */
  credentialCacheTtlMs: number;
  /** Subscription (pass/) quota windows, nano-dollars of reference-rate usage (src/pass/plan.ts explains the defaults). */
  passQuota: PassQuotaConfig;
  /** Routing: attempts per request and their total time budget (ms). */
  route: { maxAttempts: number; budgetMs: number };
  /**
   * Circuit breaker: consecutive failures that open an endpoint, how long it stays open (ms), and the failure-rate
   * rule (percent of failures over a window of ms, given at least minRequests outcomes; percent 0 = off).
   */
  breaker: {
    failureThreshold: number;
    cooldownMs: number;
    failureRate: { percent: number; windowMs: number; minRequests: number };
  };
  /**
   * Session affinity (docs/providers-and-models.md "Session affinity"): how long a conversation keeps to the endpoint
   * that served its last turn, ms (0: off), and how many conversations one process remembers without Redis.
   */
  affinity: { ttlMs: number; maxEntries: number };
  /** Shared limits (RPM/TPM, free allowance, per account and per key) live in this Redis when set; else in this process (docs/operations.md "Redis"). */
  redisUrl?: string;
  /** Key prefix of everything the gateway stores in Redis (several deployments may share one server). */
  redisPrefix: string;
  /** A Redis command slower than this counts as Redis unreachable: the request falls back to this instance's limits. */
  redisTimeoutMs: number;
  /** Bearer token of GET /metrics on the public port; without it the endpoint is off (404). */
  metricsToken?: string;
  /**
   * Generation records older than this many whole UTC days are pruned every hour (their totals and ledger rows stay;
   * docs/ledger-and-retention.md); undefined keeps every record.
   */
  generationRetentionDays?: number;
  /**
   * Stored responses of the Responses API (`store`, `previous_response_id`) are kept this many days, then purged
   * (docs/stored-responses.md); 0 stores none. MODELGATE_RESPONSE_RETENTION_DAYS, default 30.
   */
  responseRetentionDays: number;
  /** OpenTelemetry traces are exported over OTLP: OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set and the SDK not disabled. */
  tracing: boolean;
  /**
   * How traces travel (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL): http/protobuf, the
   * standard's default, or http/json. gRPC is not shipped: asking for it with tracing on fails at start.
   */
  tracesProtocol: OtlpProtocol;
  /** The opt-in response cache (docs/response-cache.md). */
  responseCache: ResponseCacheConfig;
  /**
   * Master key of secrets kept for reading back (webhook signing secrets, organizations' provider keys):
   * MODELGATE_ENCRYPTION_KEY. New secrets are sealed under it.
   */
  encryptionKey?: MasterKey;
  /**
   * Master keys being rotated away from (MODELGATE_ENCRYPTION_KEY_PREVIOUS, comma-separated): still read, never used
   * to seal, until `modelgate encryption rotate` has re-wrapped every secret under the current one.
   */
  previousEncryptionKeys: MasterKey[];
  /** What a request served on an organization's own provider key is charged, in ppm of its price (MODELGATE_BYOK_FEE). */
  byokFeePpm: number;
  /** Webhook delivery (docs/webhooks.md). */
  webhooks: WebhookConfig;
  /** The operator's guardrail patterns and phone region (docs/guardrails.md). */
  guardrails: GuardrailSettings;
}

export interface WebhookConfig {
  /** Whether this process runs a deliverer (MODELGATE_WEBHOOK_DELIVERY); events are recorded either way. */
  delivery: boolean;
  /** Finished deliveries older than this many days are pruned (MODELGATE_WEBHOOK_RETENTION_DAYS). */
  retentionDays: number;
  /** How long one attempt may take, ms (MODELGATE_WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Whether endpoints may be on private or local addresses (MODELGATE_WEBHOOK_ALLOW_PRIVATE). */
  allowPrivateDestinations: boolean;
}

export interface ResponseCacheConfig {
  /** Bytes the in-process store may hold (MODELGATE_RESPONSE_CACHE_MB); unused when Redis is configured. */
  memoryBytes: number;
  /** An answer larger than this is not kept, in memory or in Redis (MODELGATE_RESPONSE_CACHE_MAX_ENTRY_KB). */
  maxEntryBytes: number;
  /** What a hit costs, in parts per million of the original charge (MODELGATE_RESPONSE_CACHE_PRICE_FRACTION, 0 to 1). */
  priceFractionPpm: number;
}

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A whole number between `min` and `max`; `fallback` when unset. */
function integer(
  env: NodeJS.ProcessEnv,
  name: string,
  { fallback, min, max }: { fallback: number; min: number; max: number },
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** A positive USD amount (decimals allowed) → nano-dollars. */
function usd(env: NodeJS.ProcessEnv, name: string, fallback: string): bigint {
  const raw = env[name]?.trim() || fallback;
  let nanos: bigint;
  try {
    nanos = usdToNanos(raw);
  } catch {
    throw new ConfigError(name, `must be an amount of USD such as "40" or "2.5", got "${env[name]}"`);
  }
  if (nanos <= 0n || nanos > MAX_PASS_QUOTA_NANOS) {
    throw new ConfigError(
      name,
      `must be above 0 and at most ${MAX_PASS_QUOTA_NANOS / 1_000_000_000n} USD, got "${env[name]}"`,
    );
  }
  return nanos;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${env[name]}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must be a postgres:// or postgresql:// URL');
  }
  const logLevel = (env.LOG_LEVEL?.trim() || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const host = env.HOST?.trim() || '127.0.0.1';
  const redisUrl = env.MODELGATE_REDIS_URL?.trim() || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('MODELGATE_REDIS_URL', 'must be a redis:// or rediss:// URL');
  }
  const metricsToken = env.MODELGATE_METRICS_TOKEN?.trim() || undefined;
  // 0 or unset: keep every record.
  const generationRetentionDays =
    integer(env, 'MODELGATE_GENERATION_RETENTION_DAYS', { fallback: 0, min: 0, max: 36_500 }) || undefined;
  const encryptionKeyText = env.MODELGATE_ENCRYPTION_KEY?.trim() || undefined;
  const encryptionKey = encryptionKeyText === undefined ? undefined : parseMasterKey(encryptionKeyText);
  if (encryptionKeyText !== undefined && encryptionKey === undefined)
    throw new ConfigError('MODELGATE_ENCRYPTION_KEY', 'must be 32 bytes written as base64 (44 characters) or hex (64)');
  const previousEncryptionKeys = masterKeys(env, 'MODELGATE_ENCRYPTION_KEY_PREVIOUS');
  if (metricsToken !== undefined && metricsToken.length < 16) {
    throw new ConfigError('MODELGATE_METRICS_TOKEN', 'must be at least 16 characters long');
  }
  return {
    port: integer(env, 'PORT', { fallback: 8080, min: 0, max: 65535 }),
    host,
    databaseUrl,
    dataDir: path.resolve(env.MODELGATE_DATA_DIR?.trim() || '.modelgate'),
    logLevel,
    catalogPath: env.MODELGATE_CATALOG?.trim() || undefined,
    streamDefault: boolean(env, 'MODELGATE_STREAM_DEFAULT', true),
    bodyLimitBytes: integer(env, 'MODELGATE_BODY_LIMIT_BYTES', {
      fallback: 32 * 1024 * 1024,
      min: 1024,
      max: 100 * 1024 * 1024,
    }),
    ...clientTimeouts(env),
    keepAliveSeconds: integer(env, 'MODELGATE_SSE_KEEPALIVE_SECONDS', { fallback: 15, min: 1, max: 600 }),
    websocketPingSeconds: integer(env, 'MODELGATE_WEBSOCKET_PING_SECONDS', { fallback: 30, min: 1, max: 600 }),
    websocketIdleSeconds: integer(env, 'MODELGATE_WEBSOCKET_IDLE_SECONDS', { fallback: 600, min: 1, max: 3600 }),
    upstreamConnectTimeoutMs: integer(env, 'MODELGATE_UPSTREAM_CONNECT_TIMEOUT_MS', {
      fallback: 10_000,
      min: 100,
      max: 600_000,
    }),
    upstreamHeadersTimeoutMs: integer(env, 'MODELGATE_UPSTREAM_HEADERS_TIMEOUT_MS', {
      fallback: 300_000,
      min: 100,
      max: 3_600_000,
    }),
    upstreamBodyTimeoutMs: integer(env, 'MODELGATE_UPSTREAM_BODY_TIMEOUT_MS', {
      fallback: 300_000,
      min: 100,
      max: 3_600_000,
    }),
    upstreamConcurrency: integer(env, 'MODELGATE_UPSTREAM_CONCURRENCY', { fallback: 4096, min: 0, max: 1_000_000 }),
    upstreamQueueTimeoutMs: integer(env, 'MODELGATE_UPSTREAM_QUEUE_TIMEOUT_MS', {
      fallback: 10_000,
      min: 1,
      max: 600_000,
    }),
    upstreamHttp2: boolean(env, 'MODELGATE_UPSTREAM_HTTP2', true),
    shutdownGraceSeconds: integer(env, 'MODELGATE_SHUTDOWN_GRACE_SECONDS', { fallback: 30, min: 0, max: 3600 }),
    precompileValidators: boolean(env, 'MODELGATE_PRECOMPILE_VALIDATORS', true),
    drainOnAbortMs: integer(env, 'MODELGATE_DRAIN_ON_ABORT_S', { fallback: 60, min: 0, max: 3600 }) * 1000,
    rateLimitRpm: integer(env, 'MODELGATE_RATE_LIMIT_RPM', { fallback: 600, min: 0, max: 10_000_000 }),
    rateLimitTpm: integer(env, 'MODELGATE_RATE_LIMIT_TPM', { fallback: 2_000_000, min: 0, max: 1_000_000_000 }),
    freeRequestsPerDay: integer(env, 'MODELGATE_FREE_REQUESTS_PER_DAY', { fallback: 200, min: 0, max: 10_000_000 }),
    maxKeysPerAccount: integer(env, 'MODELGATE_MAX_KEYS_PER_ACCOUNT', { fallback: 1000, min: 1, max: 1_000_000 }),
    credentialCacheTtlMs:
      integer(env, 'MODELGATE_CREDENTIAL_CACHE_SECONDS', { fallback: 30, min: 0, max: 3600 }) * 1000,
    passQuota: {
      fiveHourNanos: usd(env, 'MODELGATE_PASS_QUOTA_5H', DEFAULT_PASS_QUOTA_USD.fiveHour),
      weeklyNanos: usd(env, 'MODELGATE_PASS_QUOTA_WEEKLY', DEFAULT_PASS_QUOTA_USD.weekly),
      monthlyNanos: usd(env, 'MODELGATE_PASS_QUOTA_MONTHLY', DEFAULT_PASS_QUOTA_USD.monthly),
    },
    route: {
      maxAttempts: integer(env, 'MODELGATE_ROUTE_MAX_ATTEMPTS', { fallback: 3, min: 1, max: 20 }),
      budgetMs: integer(env, 'MODELGATE_ROUTE_BUDGET_MS', { fallback: 60_000, min: 100, max: 3_600_000 }),
    },
    breaker: {
      failureThreshold: integer(env, 'MODELGATE_BREAKER_FAILURES', { fallback: 5, min: 1, max: 1000 }),
      cooldownMs: integer(env, 'MODELGATE_BREAKER_COOLDOWN_MS', { fallback: 30_000, min: 100, max: 3_600_000 }),
      failureRate: {
        percent: integer(env, 'MODELGATE_BREAKER_FAILURE_RATE', { fallback: 50, min: 0, max: 100 }),
        windowMs: integer(env, 'MODELGATE_BREAKER_WINDOW_MS', { fallback: 30_000, min: 1000, max: 3_600_000 }),
        minRequests: integer(env, 'MODELGATE_BREAKER_MIN_REQUESTS', { fallback: 20, min: 2, max: 1_000_000 }),
      },
    },
    affinity: {
      // An hour: longer than Anthropic's default 5-minute cache and as long as its 1-hour one; a conversation resumed
      // later than that has lost its provider cache anyway.
      ttlMs: integer(env, 'MODELGATE_AFFINITY_TTL_SECONDS', { fallback: 3600, min: 0, max: 7 * 24 * 3600 }) * 1000,
      maxEntries: integer(env, 'MODELGATE_AFFINITY_MAX_ENTRIES', { fallback: 100_000, min: 1, max: 100_000_000 }),
    },
    redisUrl,
    redisPrefix: env.MODELGATE_REDIS_PREFIX?.trim() || 'modelgate:',
    redisTimeoutMs: integer(env, 'MODELGATE_REDIS_TIMEOUT_MS', { fallback: 250, min: 10, max: 60_000 }),
    metricsToken,
    generationRetentionDays,
    responseRetentionDays: integer(env, 'MODELGATE_RESPONSE_RETENTION_DAYS', { fallback: 30, min: 0, max: 36_500 }),
    tracing: tracingEnabled(env),
    tracesProtocol: tracesProtocol(env),
    responseCache: {
      memoryBytes: integer(env, 'MODELGATE_RESPONSE_CACHE_MB', { fallback: 64, min: 1, max: 1_048_576 }) * 1024 * 1024,
      maxEntryBytes:
        integer(env, 'MODELGATE_RESPONSE_CACHE_MAX_ENTRY_KB', { fallback: 1024, min: 1, max: 1_048_576 }) * 1024,
      priceFractionPpm: fraction(env, 'MODELGATE_RESPONSE_CACHE_PRICE_FRACTION', 0),
    },
    encryptionKey,
    previousEncryptionKeys,
    byokFeePpm: fraction(env, 'MODELGATE_BYOK_FEE', 0),
    webhooks: {
      delivery: boolean(env, 'MODELGATE_WEBHOOK_DELIVERY', true),
      retentionDays: integer(env, 'MODELGATE_WEBHOOK_RETENTION_DAYS', { fallback: 30, min: 1, max: 36_500 }),
      timeoutMs: integer(env, 'MODELGATE_WEBHOOK_TIMEOUT_MS', { fallback: 15_000, min: 100, max: 300_000 }),
      allowPrivateDestinations: boolean(env, 'MODELGATE_WEBHOOK_ALLOW_PRIVATE', false),
    },
    guardrails: guardrailSettings(env),
  };
}

function guardrailSettings(env: NodeJS.ProcessEnv): GuardrailSettings {
  const region = env.MODELGATE_GUARDRAIL_PHONE_REGION?.trim().toUpperCase();
  if (region !== undefined && region !== '' && !isSupportedCountry(region))
    throw new ConfigError('MODELGATE_GUARDRAIL_PHONE_REGION', 'must be a two-letter country code (e.g. US, DE)');
  let patterns: Map<string, RegExp>;
  try {
    patterns = parseGuardrailPatterns(env.MODELGATE_GUARDRAIL_PATTERNS);
  } catch (err) {
    throw new ConfigError('MODELGATE_GUARDRAIL_PATTERNS', (err as Error).message);
  }
  return { patterns, ...(region ? { phoneRegion: region } : {}) };
}

/** Comma-separated master keys, each as MODELGATE_ENCRYPTION_KEY takes one (the values are never echoed). */
function masterKeys(env: NodeJS.ProcessEnv, name: string): MasterKey[] {
  const texts = (env[name] ?? '')
    .split(',')
    .map((text) => text.trim())
    .filter((text) => text !== '');
  return texts.map((text, i) => {
    const key = parseMasterKey(text);
    if (key === undefined)
      throw new ConfigError(name, `entry ${i + 1} must be 32 bytes written as base64 (44 characters) or hex (64)`);
    return key;
  });
}

/** A decimal from 0 to 1 (at most 6 decimals), in parts per million: money is computed on integers. */
function fraction(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const match = /^(0|1)(?:\.(\d{1,6}))?$/.exec(raw);
  const ppm = match ? Number(match[1]) * 1_000_000 + Number((match[2] ?? '').padEnd(6, '0')) : NaN;
  if (!match || ppm > 1_000_000)
    throw new ConfigError(name, `must be a decimal from 0 to 1 with at most 6 decimals (e.g. "0.1"), got "${raw}"`);
  return ppm;
}

/** Node requires the headers' deadline to fall within the request's. */
function clientTimeouts(env: NodeJS.ProcessEnv): { headersTimeoutMs: number; requestTimeoutMs: number } {
  const headersTimeoutMs = integer(env, 'MODELGATE_HEADERS_TIMEOUT_SECONDS', { fallback: 60, min: 1, max: 600 }) * 1000;
  const requestTimeoutMs =
    integer(env, 'MODELGATE_REQUEST_TIMEOUT_SECONDS', { fallback: 300, min: 1, max: 3600 }) * 1000;
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      'MODELGATE_HEADERS_TIMEOUT_SECONDS',
      `must not exceed MODELGATE_REQUEST_TIMEOUT_SECONDS (${requestTimeoutMs / 1000})`,
    );
  }
  return { headersTimeoutMs, requestTimeoutMs };
}

/** The standard OpenTelemetry variables decide: an OTLP endpoint is configured and the SDK is not switched off. */
function tracingEnabled(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return false;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() !== 'none';
}

/**
 * The OTLP protocol the standard variables ask for. Anything but the two HTTP encodings is refused when tracing is on
 * rather than swapped for one of them: an endpoint set up for gRPC (port 4317) would refuse every HTTP export, and
 * the spans would be lost with only a warning per batch to show for it.
 */
function tracesProtocol(env: NodeJS.ProcessEnv): OtlpProtocol {
  const name = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim()
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const asked = env[name]?.trim().toLowerCase() || 'http/protobuf';
  if (asked === 'http/protobuf' || asked === 'http/json') return asked;
  if (!tracingEnabled(env)) return 'http/protobuf';
  throw new ConfigError(
    name,
    `must be http/protobuf or http/json (gRPC is not supported: point the endpoint at the collector's OTLP/HTTP port, 4318 by default), got "${env[name]}"`,
  );
}
