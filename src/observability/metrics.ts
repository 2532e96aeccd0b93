// Prometheus metrics of one gateway process (prom-client, a registry of its own). Request, token, cost and latency
// figures come from the generation record at settlement (SettlementQueue.observer), upstream attempts from
// call-upstream.ts, refusals from admit-rate.ts. Labels are bounded: API format, provider and model are catalog
// values (the record's model is the resolved catalog id, never the text a client sent), never user or key ids.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type LabelValues } from 'prom-client';
import type { ObservedGeneration } from './observed-generation.js';
import type { SharedLimitsObserver } from '../limits/redis-store.js';
import type { OriginLoad } from '../providers/origin-limiter.js';
import { registerUpstreamLoad } from './upstream-load-metrics.js';

const NANOS_PER_USD = 1e9;
const TOKEN_TYPES = ['prompt', 'completion', 'cached', 'reasoning'] as const;

/** A histogram's child with its labels bound (prom-client's `labels()`). */
type HistogramChild = ReturnType<Histogram<'provider' | 'model'>['labels']>;

/**
 * The series of one (provider, catalog model), looked up once per request. prom-client's inc() copies, validates and
 * hashes its label object on every call, and so do its labels() children (they only bind the labels): counts are
 * summed here instead and handed to the counters when the registry is collected (a scrape). The histograms'
 * children are bound once per series and observed directly: their buckets cannot be summed at the scrape.
 */
interface ModelSeries {
  duration: HistogramChild;
  timeToFirstToken: HistogramChild;
  /** Requests not yet added to modelgate_requests_total, by `${api_format} ${status}` (both bounded). */
  requests: Map<string, Pending<'api_format' | 'provider' | 'model' | 'status'>>;
  /** Tokens not yet added to modelgate_tokens_total, in TOKEN_TYPES order. */
  tokens: number[];
  /** USD not yet added to modelgate_cost_usd_total. */
  cost: number;
}

interface Pending<T extends string> {
  labels: LabelValues<T>;
  value: number;
}

export class GatewayMetrics implements SharedLimitsObserver {
  readonly registry = new Registry();
  private readonly requests: Counter<'api_format' | 'provider' | 'model' | 'status'>;
  private readonly duration: Histogram<'provider' | 'model'>;
  private readonly timeToFirstToken: Histogram<'provider' | 'model'>;
  private readonly tokens: Counter<'type' | 'model'>;
  private readonly cost: Counter<'model'>;
  private readonly upstreamAttempts: Counter<'provider' | 'outcome'>;
  private readonly rateLimitedTotal: Counter<'reason'>;
  private readonly redisFallbacks: Counter<'operation'>;
  private readonly redisConnected?: Gauge;
  private readonly droppedSpansTotal?: Counter;
  private readonly responseCacheHits: Counter<'api_format'>;
  private readonly responseCacheMisses: Counter<'api_format'>;
  /** By provider, then catalog model: both bounded by the catalog. */
  private readonly series = new Map<string, Map<string, ModelSeries>>();
  /** Attempts not yet added to modelgate_upstream_attempts_total, by `${provider} ${outcome}`. */
  private readonly pendingAttempts = new Map<string, Pending<'provider' | 'outcome'>>();

  constructor(
    sources: {
      settlementQueueDepth: () => number;
      creditLeases: () => number;
      upstreamLoad?: () => readonly OriginLoad[];
      responseCacheBytes?: () => number;
    },
    options: { processMetrics?: boolean; redis?: boolean; tracing?: boolean } = {},
  ) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'modelgate_requests_total',
      registers,
      help: 'Generations settled (requests that reached the provider step), by API format, provider, catalog model and status (success, error, aborted).',
      labelNames: ['api_format', 'provider', 'model', 'status'],
      collect: () => this.forEachSeries((series) => addPending(this.requests, series.requests)),
    });
    this.duration = new Histogram({
      name: 'modelgate_request_duration_seconds',
      registers,
      help: 'Time from admission to the last byte of the response, by provider and catalog model.',
      labelNames: ['provider', 'model'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    });
    this.timeToFirstToken = new Histogram({
      name: 'modelgate_time_to_first_token_seconds',
      registers,
      help: 'Time from admission to the first generated token, by provider and catalog model.',
      labelNames: ['provider', 'model'],
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    });
    this.tokens = new Counter({
      name: 'modelgate_tokens_total',
      registers,
      help: 'Tokens as reported by the upstream (estimated when it reported none), by type (prompt, completion, cached, reasoning) and catalog model.',
      labelNames: ['type', 'model'],
      collect: () =>
        this.forEachSeries((series, model) => {
          series.tokens.forEach((count, i) => {
            if (count > 0) this.tokens.inc({ type: TOKEN_TYPES[i]!, model }, count);
          });
          series.tokens.fill(0);
        }),
    });
    this.cost = new Counter({
      name: 'modelgate_cost_usd_total',
      registers,
      help: 'Usage valued at the catalog prices, USD: credits charged, and for pass/ models the reference value counted against quotas.',
      labelNames: ['model'],
      collect: () =>
        this.forEachSeries((series, model) => {
          if (series.cost > 0) this.cost.inc({ model }, series.cost);
          series.cost = 0;
        }),
    });
    this.upstreamAttempts = new Counter({
      name: 'modelgate_upstream_attempts_total',
      registers,
      help: 'Calls to provider endpoints by outcome: ok, http_4xx, http_429, http_5xx, timeout, unreachable, aborted, failed, queue_timeout (no upstream slot in time).',
      labelNames: ['provider', 'outcome'],
      collect: () => addPending(this.upstreamAttempts, this.pendingAttempts),
    });
    this.rateLimitedTotal = new Counter({
      name: 'modelgate_rate_limited_total',
      registers,
      help: "Requests refused with 429 by the rate limits and free allowances (an account's or a key's own), by limit.",
      labelNames: ['reason'],
    });
    this.redisFallbacks = new Counter({
      name: 'modelgate_redis_fallbacks_total',
      registers,
      help: 'Limit, circuit-breaker and session-affinity decisions taken by this instance alone because Redis did not answer (fail-open policy).',
      labelNames: ['operation'],
    });
    // Only when the gateway exports traces itself.
    if (options.tracing) {
      this.droppedSpansTotal = new Counter({
        name: 'modelgate_trace_spans_dropped_total',
        registers,
        help: 'Finished trace spans dropped before export because the batch queue was full (OTEL_BSP_MAX_QUEUE_SIZE).',
      });
    }
    // Only with MODELGATE_REDIS_URL: a 0 on a gateway without Redis would read as an outage.
    if (options.redis) {
      this.redisConnected = new Gauge({
        name: 'modelgate_redis_up',
        registers,
        aggregator: 'min',
        help: '1 while the shared-limits Redis answers, 0 while limits fall back to each instance.',
      });
    }
    new Gauge({
      name: 'modelgate_settlement_queue_depth',
      registers,
      help: 'Generation records waiting to be written to the database.',
      collect() {
        this.set(sources.settlementQueueDepth());
      },
    });
    new Gauge({
      name: 'modelgate_credit_leases',
      registers,
      help: 'Users whose credits this process holds a lease on.',
      collect() {
        this.set(sources.creditLeases());
      },
    });
    if (sources.upstreamLoad) registerUpstreamLoad(this.registry, sources.upstreamLoad);
    this.responseCacheHits = new Counter({
      name: 'modelgate_response_cache_hits_total',
      registers,
      labelNames: ['api_format'],
      help: 'Requests with X-Modelgate-Cache answered from the response cache, by API format.',
    });
    this.responseCacheMisses = new Counter({
      name: 'modelgate_response_cache_misses_total',
      registers,
      labelNames: ['api_format'],
      help: 'Requests with X-Modelgate-Cache answered by the provider (no entry, or refresh), by API format.',
    });
    const cacheBytes = sources.responseCacheBytes;
    if (cacheBytes) {
      new Gauge({
        name: 'modelgate_response_cache_bytes',
        registers,
        help: 'Bytes of live response-cache entries: held in this process, or (with Redis) written by this instance and not expired.',
        collect() {
          this.set(cacheBytes());
        },
      });
    }
    // Event-loop lag, heap, GC, CPU, file descriptors: the process_* and nodejs_* series.
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /** One settled generation (SettlementQueue.observer). */
  observeGeneration(record: ObservedGeneration): void {
    const provider = record.provider;
    const model = record.model;
    const series = this.seriesOf(provider, model);
    const apiFormat = record.api_format ?? 'chat_completions';
    const requestKey = `${apiFormat} ${record.status}`;
    const requests = series.requests.get(requestKey);
    if (requests) requests.value += 1;
    else
      series.requests.set(requestKey, {
        labels: { api_format: apiFormat, provider, model, status: record.status },
        value: 1,
      });
    // prom-client throws on a value that is not a finite number; a metric must never fail a settlement.
    if (record.latency_ms != null && Number.isFinite(record.latency_ms))
      series.duration.observe(record.latency_ms / 1000);
    if (record.time_to_first_token_ms != null && Number.isFinite(record.time_to_first_token_ms)) {
      series.timeToFirstToken.observe(record.time_to_first_token_ms / 1000);
    }
    const nanos = BigInt(record.cost_nanos ?? 0n) + BigInt(record.reference_cost_nanos ?? 0n);
    // A request that failed before the upstream generated anything used no tokens (its record keeps the prompt
    // estimate, and it costs nothing): counting them would inflate the totals with every upstream outage.
    if (record.status === 'success' || record.time_to_first_token_ms != null || nanos > 0n) {
      series.tokens[0]! += record.prompt_tokens || 0;
      series.tokens[1]! += record.completion_tokens || 0;
      series.tokens[2]! += record.cached_tokens || 0;
      series.tokens[3]! += record.reasoning_tokens || 0;
    }
    if (nanos > 0n) series.cost += Number(nanos) / NANOS_PER_USD;
  }

  upstreamAttempt(provider: string, outcome: string): void {
    const key = `${provider} ${outcome}`;
    const pending = this.pendingAttempts.get(key);
    if (pending) pending.value += 1;
    else this.pendingAttempts.set(key, { labels: { provider, outcome }, value: 1 });
  }

  /** Spans the trace exporter's queue dropped (tracing-sdk.ts). */
  droppedSpans(count: number): void {
    this.droppedSpansTotal?.inc(count);
  }

  responseCacheHit(apiFormat: string): void {
    this.responseCacheHits.inc({ api_format: apiFormat });
  }

  responseCacheMiss(apiFormat: string): void {
    this.responseCacheMisses.inc({ api_format: apiFormat });
  }

  rateLimited(reason: 'requests_per_minute' | 'tokens_per_minute' | 'free_requests_per_day'): void {
    this.rateLimitedTotal.inc({ reason });
  }

  redisFallback(operation: 'rate' | 'free' | 'breaker' | 'affinity'): void {
    this.redisFallbacks.inc({ operation });
  }

  redisUp(up: boolean): void {
    this.redisConnected?.set(up ? 1 : 0);
  }

  private seriesOf(provider: string, model: string): ModelSeries {
    let byModel = this.series.get(provider);
    if (!byModel) {
      byModel = new Map();
      this.series.set(provider, byModel);
    }
    let series = byModel.get(model);
    if (!series) {
      series = {
        duration: this.duration.labels({ provider, model }),
        timeToFirstToken: this.timeToFirstToken.labels({ provider, model }),
        requests: new Map(),
        tokens: [0, 0, 0, 0],
        cost: 0,
      };
      byModel.set(model, series);
    }
    return series;
  }

  private forEachSeries(visit: (series: ModelSeries, model: string) => void): void {
    for (const byModel of this.series.values()) {
      for (const [model, series] of byModel) visit(series, model);
    }
  }
}

/** Hands the counts summed since the last collection to the counter. */
function addPending<T extends string>(counter: Counter<T>, pending: Map<string, Pending<T>>): void {
  for (const entry of pending.values()) {
    if (entry.value > 0) counter.inc(entry.labels, entry.value);
    entry.value = 0;
  }
}
