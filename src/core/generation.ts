// The internal result of a generation, as every provider adapter produces it and every front door renders it:
// normalized usage, finish reasons, a whole completion, and the events of a stream. No wire format lives here.
import type { ChunkDelta, ReasoningDetail, ToolCall } from './chat-types.js';

/** Token counts as the gateway accounts them (prompt includes cached reads and cache writes;
 *  completion includes reasoning). */
export interface NormalizedUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  /** Of cacheWriteTokens, those written with a 1-hour TTL (Anthropic prices them apart); absent or 0: every write
   *  was a 5-minute one, or the provider reports no split. */
  cacheWrite1hTokens?: number;
  reasoningTokens: number;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

/** Mid-stream and choice-level error codes of the spec. */
export type StreamErrorCode = 'context_length_exceeded' | 'content_filter' | 'rate_limit' | 'server_error';

/** A full (non-streamed) reply, normalized. */
export interface AdapterCompletion {
  upstreamId?: string;
  content: string | null;
  reasoning?: string;
  reasoningDetails?: ReasoningDetail[];
  toolCalls?: ToolCall[];
  refusal?: string;
  finishReason: FinishReason;
  /** The client's stop sequence that ended generation, when the provider says which (Anthropic does). */
  stopSequence?: string;
  usage?: NormalizedUsage;
}

/** What a stream translator emits; the gateway turns these into ChatCompletionChunks. */
export type StreamEvent =
  | { type: 'upstream-id'; id: string }
  | { type: 'delta'; delta: Omit<ChunkDelta, 'role'> }
  | { type: 'finish'; finishReason: FinishReason; stopSequence?: string }
  | { type: 'usage'; usage: NormalizedUsage }
  | { type: 'error'; code: StreamErrorCode; message: string };
