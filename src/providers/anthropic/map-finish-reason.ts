// Anthropic stop_reason → the gateway's finish reasons.
import type { FinishReason } from '../../core/generation.js';

const KNOWN: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  // A server-tool loop paused; the reply so far is complete as far as this request goes.
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  // Claude's safety classifiers stopped the reply.
  refusal: 'content_filter',
};

/** Unknown or missing reasons read as `stop` (the reply did end), or `tool_calls` when it holds tool calls. */
export function mapFinishReason(stopReason: unknown, hasToolCalls = false): FinishReason {
  const mapped = typeof stopReason === 'string' ? KNOWN[stopReason] : undefined;
  return mapped ?? (hasToolCalls ? 'tool_calls' : 'stop');
}
