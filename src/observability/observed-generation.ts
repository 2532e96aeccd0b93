// The fields of a generation record that telemetry reports (metrics at settlement, the request span): declared here,
// so that telemetry reads what it is handed and no table. The record the pipeline settles (db/tables/generations.ts
// NewGeneration) has every one of them.
export interface ObservedGeneration {
  id: string;
  /** Catalog id as resolved (bounded: never the text a client sent). */
  model: string;
  provider: string;
  upstream_model: string;
  status: 'success' | 'error' | 'aborted';
  finish_reason?: string | null;
  error_code?: string | null;
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
  reasoning_tokens?: number;
  cost_nanos?: bigint;
  reference_cost_nanos?: bigint | null;
  latency_ms: number;
  time_to_first_token_ms?: number | null;
  /** The front door; absent on records written before the doors were told apart. */
  api_format?: string | null;
  /** Answered from the response cache (no upstream call). */
  cache_hit?: boolean;
}
