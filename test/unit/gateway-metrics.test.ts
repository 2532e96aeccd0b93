// GatewayMetrics sums the per-request counts per series and hands them to prom-client when the registry is collected:
// every count must appear exactly once however many scrapes there are, and each series keeps its own labels. The
// latency histograms are prom-client Histograms whose children are bound once per series; `--workers` sums them.
import { AggregatorRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import { GatewayMetrics } from '../../src/observability/metrics.js';

const metrics = () =>
  new GatewayMetrics({ settlementQueueDepth: () => 0, creditLeases: () => 0 }, { processMetrics: false });

const record = (overrides: Partial<NewGeneration> = {}): NewGeneration => ({
  id: 'gen-1',
  user_id: 'u',
  api_key_id: null,
  access_mode: 'credits',
  model: 'openai/gpt-test',
  provider: 'openai',
  upstream_model: 'gpt-test-2026',
  upstream_id: null,
  streamed: false,
  finish_reason: 'stop',
  status: 'success',
  http_status: 200,
  error_code: null,
  error_message: null,
  prompt_tokens: 10,
  completion_tokens: 5,
  cached_tokens: 0,
  reasoning_tokens: 2,
  cost_nanos: 1_500_000n,
  reference_cost_nanos: null,
  latency_ms: 200,
  time_to_first_token_ms: 50,
  app_title: null,
  app_referer: null,
  task_id: null,
  attempts: null,
  ...overrides,
});

/** The value of one sample line of the text format, e.g. `modelgate_tokens_total{type="prompt",model="m"}`. */
async function sample(m: GatewayMetrics, series: string): Promise<number | undefined> {
  const line = (await m.registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GatewayMetrics', () => {
  it('counts each generation exactly once across scrapes', async () => {
    const m = metrics();
    m.observeGeneration(record());
    m.observeGeneration(record());
    m.upstreamAttempt('openai', 'ok');
    const requests =
      'modelgate_requests_total{api_format="chat_completions",provider="openai",model="openai/gpt-test",status="success"}';
    expect(await sample(m, requests)).toBe(2);
    expect(await sample(m, requests)).toBe(2);
    m.observeGeneration(record());
    m.observeGeneration(
      record({
        status: 'error',
        error_code: 'upstream_error',
        prompt_tokens: 0,
        completion_tokens: 0,
        reasoning_tokens: 0,
        cost_nanos: 0n,
        time_to_first_token_ms: null,
      }),
    );
    m.upstreamAttempt('openai', 'ok');
    m.upstreamAttempt('openai', 'http_5xx');
    expect(await sample(m, requests)).toBe(3);
    expect(await sample(m, requests.replace('success', 'error'))).toBe(1);
    expect(await sample(m, 'modelgate_tokens_total{type="prompt",model="openai/gpt-test"}')).toBe(30);
    expect(await sample(m, 'modelgate_tokens_total{type="completion",model="openai/gpt-test"}')).toBe(15);
    expect(await sample(m, 'modelgate_tokens_total{type="reasoning",model="openai/gpt-test"}')).toBe(6);
    // No tokens of a type means no series for it (as before: no zero-valued series).
    expect(await sample(m, 'modelgate_tokens_total{type="cached",model="openai/gpt-test"}')).toBeUndefined();
    expect(await sample(m, 'modelgate_cost_usd_total{model="openai/gpt-test"}')).toBeCloseTo(0.0045, 12);
    expect(await sample(m, 'modelgate_upstream_attempts_total{provider="openai",outcome="ok"}')).toBe(2);
    expect(await sample(m, 'modelgate_upstream_attempts_total{provider="openai",outcome="http_5xx"}')).toBe(1);
    expect(await sample(m, 'modelgate_request_duration_seconds_count{provider="openai",model="openai/gpt-test"}')).toBe(
      4,
    );
    expect(
      await sample(m, 'modelgate_time_to_first_token_seconds_count{provider="openai",model="openai/gpt-test"}'),
    ).toBe(3);
  });

  it('keeps series of different providers, models and formats apart', async () => {
    const m = metrics();
    m.observeGeneration(record());
    m.observeGeneration({
      ...record({ model: 'anthropic/claude-test', provider: 'anthropic', prompt_tokens: 7 }),
      api_format: 'messages',
    });
    expect(
      await sample(
        m,
        'modelgate_requests_total{api_format="messages",provider="anthropic",model="anthropic/claude-test",status="success"}',
      ),
    ).toBe(1);
    expect(
      await sample(
        m,
        'modelgate_requests_total{api_format="chat_completions",provider="openai",model="openai/gpt-test",status="success"}',
      ),
    ).toBe(1);
    expect(await sample(m, 'modelgate_tokens_total{type="prompt",model="anthropic/claude-test"}')).toBe(7);
    expect(await sample(m, 'modelgate_tokens_total{type="prompt",model="openai/gpt-test"}')).toBe(10);
  });

  it('shows upstream slots per origin as the HTTP client counts them, queue timeouts once however many scrapes', async () => {
    const load = [{ origin: 'https://api.example', inFlight: 3, queued: 2, queueTimeouts: 1 }];
    const m = new GatewayMetrics(
      { settlementQueueDepth: () => 0, creditLeases: () => 0, upstreamLoad: () => load },
      { processMetrics: false },
    );
    expect(await sample(m, 'modelgate_upstream_requests_in_flight{origin="https://api.example"}')).toBe(3);
    expect(await sample(m, 'modelgate_upstream_requests_queued{origin="https://api.example"}')).toBe(2);
    expect(await sample(m, 'modelgate_upstream_queue_timeouts_total{origin="https://api.example"}')).toBe(1);
    load[0] = { origin: 'https://api.example', inFlight: 1, queued: 0, queueTimeouts: 4 };
    expect(await sample(m, 'modelgate_upstream_requests_queued{origin="https://api.example"}')).toBe(0);
    expect(await sample(m, 'modelgate_upstream_queue_timeouts_total{origin="https://api.example"}')).toBe(4);
    expect(await sample(m, 'modelgate_upstream_queue_timeouts_total{origin="https://api.example"}')).toBe(4);
  });

  it('counts trace spans dropped by the exporter queue, when tracing is on', async () => {
    expect(await sample(metrics(), 'modelgate_trace_spans_dropped_total')).toBeUndefined();
    const m = new GatewayMetrics(
      { settlementQueueDepth: () => 0, creditLeases: () => 0 },
      { processMetrics: false, tracing: true },
    );
    m.droppedSpans(5);
    m.droppedSpans(2);
    expect(await sample(m, 'modelgate_trace_spans_dropped_total')).toBe(7);
  });

  it('buckets latencies per (provider, model) series, ignores a value that is not a number, and sums across workers', async () => {
    const a = metrics();
    const b = metrics();
    for (const latency of [40, 50, 300, 7_000])
      a.observeGeneration(record({ latency_ms: latency, time_to_first_token_ms: 20 }));
    a.observeGeneration(record({ latency_ms: Number.NaN, time_to_first_token_ms: Number.POSITIVE_INFINITY }));
    b.observeGeneration(record({ latency_ms: 100 }));
    b.observeGeneration(record({ model: 'anthropic/claude-test', provider: 'anthropic', latency_ms: 2_000 }));
    const duration = (le: string, model = 'openai/gpt-test', provider = 'openai') =>
      `modelgate_request_duration_seconds_bucket{le="${le}",provider="${provider}",model="${model}"}`;
    // le is inclusive: 0.05 s lands in the 0.05 bucket; 7 s only from the 10 s bucket on.
    expect(await sample(a, duration('0.05'))).toBe(2);
    expect(await sample(a, duration('0.5'))).toBe(3);
    expect(await sample(a, duration('5'))).toBe(3);
    expect(await sample(a, duration('10'))).toBe(4);
    expect(await sample(a, duration('+Inf'))).toBe(4);
    expect(
      await sample(a, 'modelgate_request_duration_seconds_sum{provider="openai",model="openai/gpt-test"}'),
    ).toBeCloseTo(7.39, 9);
    expect(
      await sample(a, 'modelgate_time_to_first_token_seconds_count{provider="openai",model="openai/gpt-test"}'),
    ).toBe(4);

    const cluster = AggregatorRegistry.aggregate([
      await a.registry.getMetricsAsJSON(),
      await b.registry.getMetricsAsJSON(),
    ]);
    const text = await cluster.metrics();
    const line = (series: string) =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith(`${series} `))
          ?.slice(series.length + 1),
      );
    expect(line(duration('0.1'))).toBe(3);
    expect(line(duration('+Inf'))).toBe(5);
    expect(line(duration('2.5', 'anthropic/claude-test', 'anthropic'))).toBe(1);
    expect(line(duration('1', 'anthropic/claude-test', 'anthropic'))).toBe(0);
  });
});
