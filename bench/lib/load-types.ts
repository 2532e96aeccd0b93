// Messages between the orchestrator and a load-generator process (one job per process).

export interface LoadJob {
  url: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  warmupSeconds: number;
  measureSeconds: number;
  /**
   * autocannon's sampling interval, ms (default 1000). A run stops at the first sample after its duration, so
   * fractional seconds need a shorter interval to be honoured.
   */
  sampleMs?: number;
}

export interface LoadSummary {
  durationS: number;
  /** 2xx responses completed in the measured window. */
  ok: number;
  /** 2xx responses per second. */
  rps: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Milliseconds, from each 2xx response's own timing (sub-millisecond). */
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
}

export type LoadMessage =
  | { type: 'measuring' }
  | { type: 'result'; summary: LoadSummary }
  | { type: 'error'; message: string };
