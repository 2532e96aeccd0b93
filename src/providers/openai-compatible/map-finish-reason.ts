// Vendor finish reasons → the gateway's five. Vendors drift from OpenAI's list (Mistral `model_length`,
// Anthropic-style `max_tokens`/`tool_use`, Gemini upper case, DeepSeek `insufficient_system_resource`).
import type { FinishReason } from '../../core/generation.js';

const KNOWN: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  eos: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  length: 'length',
  max_tokens: 'length',
  model_length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  tool_use: 'tool_calls',
  content_filter: 'content_filter',
  safety: 'content_filter',
  error: 'error',
  insufficient_system_resource: 'error',
};

/**
 * Map one vendor finish reason. Unknown values read as `stop` (the reply did end); `hasToolCalls` upgrades a
 * plain stop to `tool_calls` because some compatibility layers (Gemini) say `stop` while returning tool calls.
 */
export function mapFinishReason(value: unknown, hasToolCalls = false): FinishReason {
  const mapped = typeof value === 'string' ? (KNOWN[value.toLowerCase()] ?? 'stop') : 'stop';
  return mapped === 'stop' && hasToolCalls ? 'tool_calls' : mapped;
}
