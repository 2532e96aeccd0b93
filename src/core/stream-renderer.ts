// What a front door (chat completions, Anthropic Messages, OpenAI Responses) supplies to render one generation in
// its own wire format. The pipeline produces internal results and stream events; the HTTP layer writes the frames a
// renderer makes of them. A renderer is stateful, one per request, and never does I/O.
import type { AccessMode } from './access-mode.js';
import type { FinishReason, GenerationResult, NormalizedUsage, StreamErrorCode, StreamEvent } from './generation.js';

/** One Server-Sent Event to send: `event:` line when named, then the `data:` line. */
export interface SseFrame {
  event?: string;
  data: string;
}

/** How a stream's frames are written: Server-Sent Events, or the elements of one JSON array (Gemini without `alt=sse`). */
export type StreamFraming = 'sse' | 'json-array';

/** Who answered and what it cost, as far as the generation went: what every format's usage and ids are made of. */
export interface GenerationTotals {
  usage: NormalizedUsage;
  /** Valued at the serving model's prices: the charge (credits) or the reference value (pass). */
  costNanos: bigint;
  accessMode: AccessMode;
}

/** The identity of one generation, the same in every frame or body of one response. */
export interface GenerationIdentity {
  /** Gateway generation id (`gen-…`), also the `x-generation-id` header. */
  id: string;
  /** Gateway id of the model that served (a `models` fallback when the requested model's endpoints failed). */
  model: string;
  /** Id of the provider whose endpoint served (`x-modelgate-provider`). */
  provider: string;
  /** Unix seconds. */
  created: number;
}

/** How a stream ended: a finish reason, or a failure after the response started (rendered in-stream). */
export type StreamEnd =
  | { type: 'finish'; finishReason: FinishReason; stopSequence?: string; totals: GenerationTotals }
  | { type: 'error'; code: StreamErrorCode; message: string; totals: GenerationTotals };

export interface StreamRenderer {
  /** Frames sent before any upstream event (chat: the role chunk; Messages: message_start). */
  start(): SseFrame[];
  /** Frames for one internal event; most events of most formats render as zero or one frame. */
  event(event: StreamEvent): SseFrame[];
  /** The closing frames (chat: finish or error chunk and [DONE]). */
  end(end: StreamEnd): SseFrame[];
  /** Sent while the upstream is silent, so proxies keep the connection: an SSE comment line or a ping event. */
  readonly keepAlive: string;
}

/** Renders a whole (non-streamed) generation as the format's JSON body. */
export type CompletionRenderer = (
  result: GenerationResult,
  totals: GenerationTotals,
  identity: GenerationIdentity,
) => unknown;
