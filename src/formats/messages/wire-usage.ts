// NormalizedUsage → Anthropic's usage object (input_tokens without cache reads and writes, cache writes split by
// lifetime in cache_creation) and the internal finish reason → stop_reason. Only the shape is Anthropic's: the
// counts are what the gateway bills. A provider that reports no lifetime split wrote 5-minute entries as far as the
// gateway knows (and billed them so). Web searches a vendor ran (Gemini's Google Search) are in `server_tool_use`.
import type { FinishReason, NormalizedUsage } from '../../core/generation.js';
import { usageBreakdown } from '../shared/usage-breakdown.js';
import type { MessagesUsage } from './wire-types.js';

export type MessagesStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

export function toMessagesUsage(usage: NormalizedUsage): MessagesUsage {
  const counts = usageBreakdown(usage);
  const wire: MessagesUsage = {
    input_tokens: counts.uncachedInputTokens,
    output_tokens: counts.outputTokens,
    cache_read_input_tokens: counts.cacheReadTokens,
    cache_creation_input_tokens: counts.cacheWriteTokens,
    cache_creation: {
      ephemeral_5m_input_tokens: counts.cacheWriteTokens - counts.cacheWrite1hTokens,
      ephemeral_1h_input_tokens: counts.cacheWrite1hTokens,
    },
  };
  // Anthropic's own field for the searches billed per request; left out when none ran, as for a plain answer.
  if (usage.webSearchRequests) wire.server_tool_use = { web_search_requests: usage.webSearchRequests };
  return wire;
}

/**
 * `stop` is end_turn, or stop_sequence when the provider said which stop sequence matched (Anthropic does; the
 * chat-format providers do not, so theirs read end_turn); a content filter is Anthropic's `refusal`.
 */
export function toStopReason(reason: FinishReason, stopSequence?: string): MessagesStopReason {
  if (reason === 'stop' && stopSequence !== undefined) return 'stop_sequence';
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
