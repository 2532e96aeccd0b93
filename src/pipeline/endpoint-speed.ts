// What one generation tells routing of its endpoint's speed, observed only where there is a choice to make between
// endpoints (provider.sort = latency | throughput): the time to the answer, and the completion tokens per second of a
// stream that succeeded.
import type { EndpointStats } from '../routing/endpoint-stats.js';
import type { Target } from '../routing/resolve-target.js';
import type { GenerationMeter } from './generation-meter.js';
import { endpointKeyOf } from './run-attempts.js';

const hasChoice = (target: Target) => (target.entry.endpoints?.length ?? 1) > 1;

/** The time until the endpoint answered (status and headers). */
export function observeLatency(sending: Promise<unknown>, target: Target, stats: EndpointStats): void {
  if (!hasChoice(target)) return;
  const started = Date.now();
  const key = endpointKeyOf(target);
  void sending.then(
    () => stats.observeLatency(key, Date.now() - started),
    () => undefined,
  );
}

/** Completion tokens per second of a generation that succeeded with the upstream's own usage. */
export function observeThroughput(meter: GenerationMeter, target: Target, stats: EndpointStats): void {
  if (!hasChoice(target) || meter.outcome !== 'success' || meter.usageIsEstimated) return;
  const firstToken = meter.timeToFirstTokenMs();
  const generatingMs = meter.latencyMs() - (firstToken ?? 0);
  if (generatingMs > 0)
    stats.observeThroughput(endpointKeyOf(target), meter.finalUsage().completionTokens / (generatingMs / 1000));
}
