import type { Generated, Insertable, Selectable } from 'kysely';
import type { AccessMode } from '../../core/access-mode.js';
import type { ToolUses } from '../../core/tool-uses.js';
import type { ServedOptions } from '../../core/served-options.js';
export type GenerationStatus = 'success' | 'error' | 'aborted';

/** `generations`: one row per completion request, written once when it is settled. */
export interface GenerationsTable {
  id: string;
  user_id: string;
  api_key_id: string | null;
  /**
   * The member behind the request: its key's member, or the account token's user (migration 0024); null in records
   * written before, whose member is their key's.
   */
  member_user_id: string | null;
  access_mode: AccessMode;
  model: string;
  provider: string;
  upstream_model: string;
  upstream_id: string | null;
  streamed: boolean;
  finish_reason: string | null;
  status: GenerationStatus;
  http_status: number | null;
  error_code: string | null;
  error_message: string | null;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  cached_tokens: Generated<number>;
  cache_write_tokens: Generated<number>;
  reasoning_tokens: Generated<number>;
  cost_nanos: Generated<bigint>;
  /** What the request would have cost at credit prices; set for pass-mode requests. */
  reference_cost_nanos: bigint | null;
  latency_ms: number;
  time_to_first_token_ms: number | null;
  app_title: string | null;
  app_referer: string | null;
  task_id: string | null;
  created_at: Generated<Date>;
  /** The front door the request came through. */
  api_format: Generated<ApiFormat>;
  /** Every upstream attempt when routing tried more than one endpoint; null for a single attempt. */
  attempts: GenerationAttempt[] | null;
  /** Served from the response cache: no upstream call, 0 tokens, cost = what the hit was charged (migration 0013). */
  cache_hit: Generated<boolean>;
  /** For a hit: the original answer's cost less the hit's charge. */
  cache_saved_nanos: Generated<bigint>;
  /** The provider reported no usage: the gateway's token estimate was billed. */
  usage_estimated: Generated<boolean>;
  /** Web search requests billed per request on top of the tokens (a hosted search tool; migration 0014_tool_fees). */
  web_search_requests: Generated<number>;
  /** Billed uses of the other hosted tools, by tool, in each tool's unit (core/tool-uses.ts; migration 0014_tool_fees); null: none. */
  tool_uses: Generated<ToolUses | null>;
  /** Served on the organization's own provider key: charged the operator's BYOK fee, not the price (migration 0019). */
  byok: Generated<boolean>;
  /** Names of the guardrails that fired on the request or its answer (migration 0022); null: none. */
  guardrails: Generated<string[] | null>;
}

export type ApiFormat = 'chat_completions' | 'messages' | 'responses' | 'embeddings' | 'gemini';

/** One upstream attempt of a routed request, as kept in `generations.attempts`. */
export interface GenerationAttempt {
  provider: string;
  model: string;
  /** Upstream HTTP status, or null when no response arrived (connection failure, timeout). */
  status: number | null;
  error_code: string | null;
  latency_ms: number;
  /** For the attempt that served: the price options its answer said it served (core/served-options.ts), when not standard. */
  served?: ServedOptions;
}

export type GenerationRow = Selectable<GenerationsTable>;
export type NewGeneration = Insertable<GenerationsTable>;
