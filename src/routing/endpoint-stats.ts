// Observed speed per endpoint on this instance, for `provider.sort` = latency | throughput: exponentially weighted
// moving averages of the time to the upstream's first byte and of completion tokens per second.
const WEIGHT = 0.3;

export class EndpointStats {
  private readonly latency = new Map<string, number>();
  private readonly throughput = new Map<string, number>();

  observeLatency(key: string, ms: number): void {
    this.latency.set(key, blend(this.latency.get(key), ms));
  }

  observeThroughput(key: string, tokensPerSecond: number): void {
    if (Number.isFinite(tokensPerSecond) && tokensPerSecond > 0)
      this.throughput.set(key, blend(this.throughput.get(key), tokensPerSecond));
  }

  latencyMs(key: string): number | undefined {
    return this.latency.get(key);
  }

  tokensPerSecond(key: string): number | undefined {
    return this.throughput.get(key);
  }
}

function blend(previous: number | undefined, sample: number): number {
  return previous === undefined ? sample : previous + WEIGHT * (sample - previous);
}
