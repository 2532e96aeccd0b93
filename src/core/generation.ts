// The internal result of a generation, as every provider adapter produces it and every front door renders it:
// normalized usage, finish reasons, a whole reply as ordered output blocks, and the events of a stream. No wire
// format lives here.
import type {
  Citation,
  ReasoningBlock,
  RefusalBlock,
  TextBlock,
  ToolCallBlock,
  ToolCallKind,
  WebSearchBlock,
} from './content-blocks.js';
import type { ToolUses } from './tool-uses.js';
import type { ServedOptions } from './served-options.js';

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
  /**
   * Web search requests the vendor ran for a hosted search tool and bills per request, as it counts them (Anthropic's
   * `server_tool_use.web_search_requests`, OpenAI's `web_search_call` items, Gemini's grounding queries); absent: 0.
   */
  webSearchRequests?: number;
  /**
   * Billed uses of the other hosted tools the vendor charges per use (OpenAI's file search calls and code interpreter
   * containers, Anthropic's code execution containers, Gemini's Google Maps grounded prompts; tool-uses.ts); absent:
   * none.
   */
  toolUses?: ToolUses;
  /**
   * The options the vendor says it served that set a price factor (served-options.ts: OpenAI's priority or flex tier,
   * Anthropic's fast mode or US-only inference); absent: standard.
   */
  served?: ServedOptions;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

/** Mid-stream and choice-level error codes of the spec. */
export type StreamErrorCode = 'context_length_exceeded' | 'content_filter' | 'rate_limit' | 'server_error';

/** What a model produces: answer text, reasoning records, tool calls, a refusal, web searches its vendor ran. */
export type OutputBlock = TextBlock | ReasoningBlock | ToolCallBlock | RefusalBlock | WebSearchBlock;

/** A full (non-streamed) reply, normalized. */
export interface GenerationResult {
  upstreamId?: string;
  /** The reply's blocks in the order the model produced them. */
  output: OutputBlock[];
  finishReason: FinishReason;
  /** The client's stop sequence that ended generation, when the provider says which (Anthropic does). */
  stopSequence?: string;
  usage?: NormalizedUsage;
}

/** A reasoning record as a stream delivers it: the block's fields, without its type. */
export type ReasoningState = Omit<ReasoningBlock, 'type'>;

/**
 * What a stream translator emits, in the order the model produced it. Blocks arrive one at a time: text and reasoning
 * text as deltas of the block open at that moment, a tool call as its start and then fragments of its input.
 */
export type StreamEvent =
  | { type: 'upstream-id'; id: string }
  /** Answer text. */
  | { type: 'text-delta'; text: string }
  /** Visible reasoning text. */
  | { type: 'reasoning-delta'; text: string }
  /**
   * A reasoning record with its vendor state: a signature that seals the reasoning streamed just before it, a summary,
   * or opaque data that stands on its own (redacted thinking, a Gemini part's signature, encrypted content).
   */
  | { type: 'reasoning-state'; state: ReasoningState }
  /** A tool call begins. `index` numbers the calls of one reply from 0; `input` may carry the first fragment. */
  | {
      type: 'tool-call-start';
      index: number;
      id: string;
      name: string;
      namespace?: string;
      kind: ToolCallKind;
      input?: string;
    }
  /** The next fragment of a call's input (JSON text of a function call, raw text of a custom one). */
  | { type: 'tool-call-delta'; index: number; input: string }
  | { type: 'refusal-delta'; text: string }
  /**
   * A source the text streamed so far quotes. `span`: the citation covers the last `span` characters of answer text
   * streamed before it (absent: where it covers is not known).
   */
  | { type: 'citation'; citation: Citation; span?: number }
  /** A web search the vendor ran, whole (it comes before the text that cites it). */
  | { type: 'web-search'; search: Omit<WebSearchBlock, 'type'> }
  | { type: 'finish'; finishReason: FinishReason; stopSequence?: string }
  | { type: 'usage'; usage: NormalizedUsage }
  | { type: 'error'; code: StreamErrorCode; message: string };

/** Generated characters of an event (answer, reasoning, call names and inputs): what the token rate and meter count. */
export function generatedChars(event: StreamEvent): number {
  switch (event.type) {
    case 'text-delta':
    case 'reasoning-delta':
    case 'refusal-delta':
      return event.text.length;
    case 'tool-call-start':
      return event.name.length + (event.input?.length ?? 0);
    case 'tool-call-delta':
      return event.input.length;
    default:
      return 0;
  }
}
