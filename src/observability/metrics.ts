// Prometheus metrics of one gateway process (prom-client, a registry of its own). Request, token, cost and latency
// figures come from the generation record at settlement (SettlementQueue.observer), upstream attempts from
// call-upstream.ts, refusals from admit-rate.ts. Labels are bounded: API format, provider and model are catalog
// values (the record's model is the resolved catalog id, never the text a client sent), never user or key ids.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { NewGeneration } from '../db/tables/generations.js';
import type { SharedLimitsObserver } from '../limits/redis-store.js';

/** The record as the front doors will write it: `api_format` once Messages and Responses land. */
type ObservedRecord = NewGeneration & { api_format?: string | null };

const NANOS_PER_USD = 1e9;

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

  constructor(sources: { settlementQueueDepth: () => number; creditLeases: () => number }, options: { processMetrics?: boolean; redis?: boolean } = {}) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'modelgate_requests_total', registers,
      help: 'Generations settled (requests that reached the provider step), by API format, provider, catalog model and status (success, error, aborted).',
      labelNames: ['api_format', 'provider', 'model', 'status'],
    });
    this.duration = new Histogram({
      name: 'modelgate_request_duration_seconds', registers,
      help: 'Time from admission to the last byte of the response, by provider and catalog model.',
      labelNames: ['provider', 'model'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    });
    this.timeToFirstToken = new Histogram({
      name: 'modelgate_time_to_first_token_seconds', registers,
      help: 'Time from admission to the first generated token, by provider and catalog model.',
      labelNames: ['provider', 'model'],
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    });
    this.tokens = new Counter({
      name: 'modelgate_tokens_total', registers,
      help: 'Tokens as reported by the upstream (estimated when it reported none), by type (prompt, completion, cached, reasoning) and catalog model.',
      labelNames: ['type', 'model'],
    });
    this.cost = new Counter({
      name: 'modelgate_cost_usd_total', registers,
      help: 'Usage valued at the catalog prices, USD: credits charged, and for pass/ models the reference value counted against quotas.',
      labelNames: ['model'],
    });
    this.upstreamAttempts = new Counter({
      name: 'modelgate_upstream_attempts_total', registers,
      help: 'Calls to provider endpoints by outcome: ok, http_4xx, http_429, http_5xx, timeout, unreachable, aborted, failed.',
      labelNames: ['provider', 'outcome'],
    });
    this.rateLimitedTotal = new Counter({
      name: 'modelgate_rate_limited_total', registers,
      help: 'Requests refused with 429 by the per-key limits, by limit.',
      labelNames: ['reason'],
    });
    this.redisFallbacks = new Counter({
      name: 'modelgate_redis_fallbacks_total', registers,
      help: 'Limit and circuit-breaker decisions taken by this instance alone because Redis did not answer (fail-open policy).',
      labelNames: ['operation'],
    });
    // Only with MODELGATE_REDIS_URL: a 0 on a gateway without Redis would read as an outage.
    if (options.redis) {
      this.redisConnected = new Gauge({
        name: 'modelgate_redis_up', registers, aggregator: 'min',
        help: '1 while the shared-limits Redis answers, 0 while limits fall back to each instance.',
      });
    }
    new Gauge({
      name: 'modelgate_settlement_queue_depth', registers,
      help: 'Generation records waiting to be written to the database.',
      collect() {
        this.set(sources.settlementQueueDepth());
      },
    });
    new Gauge({
      name: 'modelgate_credit_leases', registers,
      help: 'Users whose credits this process holds a lease on.',
      collect() {
        this.set(sources.creditLeases());
      },
    });
    // Event-loop lag, heap, GC, CPU, file descriptors: the process_* and nodejs_* series.
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /** One settled generation (SettlementQueue.observer). */
  observeGeneration(record: ObservedRecord): void {
    const provider = record.provider;
    const model = record.model;
    this.requests.inc({ api_format: record.api_format ?? 'chat_completions', provider, model, status: record.status });
    if (record.latency_ms != null) this.duration.observe({ provider, model }, record.latency_ms / 1000);
    if (record.time_to_first_token_ms != null) this.timeToFirstToken.observe({ provider, model }, record.time_to_first_token_ms / 1000);
    const nanos = BigInt(record.cost_nanos ?? 0n) + BigInt(record.reference_cost_nanos ?? 0n);
    // A request that failed before the upstream generated anything used no tokens (its record keeps the prompt
    // estimate, and it costs nothing): counting them would inflate the totals with every upstream outage.
    if (record.status === 'success' || record.time_to_first_token_ms != null || nanos > 0n) {
      this.addTokens('prompt', model, record.prompt_tokens);
      this.addTokens('completion', model, record.completion_tokens);
      this.addTokens('cached', model, record.cached_tokens);
      this.addTokens('reasoning', model, record.reasoning_tokens);
    }
    if (nanos > 0n) this.cost.inc({ model }, Number(nanos) / NANOS_PER_USD);
  }

  upstreamAttempt(provider: string, outcome: string): void {
    this.upstreamAttempts.inc({ provider, outcome });
  }

  rateLimited(reason: 'requests_per_minute' | 'tokens_per_minute' | 'free_requests_per_day'): void {
    this.rateLimitedTotal.inc({ reason });
  }

  redisFallback(operation: 'rate' | 'free' | 'breaker'): void {
    this.redisFallbacks.inc({ operation });
  }

  redisUp(up: boolean): void {
    this.redisConnected?.set(up ? 1 : 0);
  }

  private addTokens(type: string, model: string, count: number | undefined | null): void {
    if (count) this.tokens.inc({ type, model }, count);
  }
}
