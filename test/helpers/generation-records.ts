// A settled credits request as the settlement queue writes it, for data-layer tests of settlement.
import type { NewGeneration } from '../../src/db/tables/generations.js';
import { uniqueId } from './databases.js';

export function creditsGenerationRecord(userId: string, costNanos: bigint, id = uniqueId('gen-')): NewGeneration {
  return {
    id, user_id: userId, api_key_id: null, access_mode: 'credits', model: 'openai/gpt-test', provider: 'openai',
    upstream_model: 'gpt-test', upstream_id: null, streamed: false, finish_reason: 'stop', status: 'success',
    http_status: 200, error_code: null, error_message: null, prompt_tokens: 1, completion_tokens: 1, cached_tokens: 0,
    cache_write_tokens: 0, reasoning_tokens: 0, cost_nanos: costNanos, reference_cost_nanos: null, latency_ms: 1,
    time_to_first_token_ms: null, app_title: null, app_referer: null, task_id: null,
  };
}
