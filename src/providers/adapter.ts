// The one interface every provider adapter implements. Adapters are pure: they build a vendor HTTP
// request description and translate vendor payloads back; the transport (http-client.ts) does the I/O.
import type { ChatCompletionRequest, ChunkDelta, ReasoningDetail, ToolCall } from '../chat/types.js';

/** Where and how to reach one vendor; built from <PROVIDER>_API_KEY / <PROVIDER>_BASE_URL. */
export interface ProviderConfig {
  /** Provider slug as used in model ids: "openai", "deepseek", "anthropic", ... */
  id: string;
  /** Which adapter serves it. */
  kind: 'openai-compatible' | 'anthropic' | 'gemini';
  baseUrl: string;
  /** Absent when the operator configured no key: the gateway answers 503 without calling out. */
  apiKey?: string;
  /** Vendor quirks for OpenAI-compatible upstreams (see openai-compatible/vendors.ts). */
  quirks?: Record<string, unknown>;
  /** Extra static headers the vendor wants (e.g. OpenRouter's HTTP-Referer). */
  headers?: Record<string, string>;
}

/** What the adapter needs to know about the target model. */
export interface AdapterModel {
  /** Gateway id, e.g. "openai/gpt-4o". */
  id: string;
  /** Name the upstream knows the model by, e.g. "gpt-4o". */
  upstreamModel: string;
  supportsReasoning: boolean;
  /** Output-token cap used when the client sets none and the vendor requires one (Anthropic). */
  maxOutputTokens?: number;
}

export interface AdapterContext {
  provider: ProviderConfig;
  model: AdapterModel;
  stream: boolean;
}

/** A vendor HTTP request, fully described; the transport sends it as is. */
export interface UpstreamRequest {
  method: 'POST';
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  /** Serialized JSON body. */
  body: string;
}

/** Token counts as the gateway accounts them (prompt includes cached reads and cache writes;
 *  completion includes reasoning). */
export interface NormalizedUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
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
  usage?: NormalizedUsage;
}

/** What a stream translator emits; the gateway turns these into ChatCompletionChunks. */
export type StreamEvent =
  | { type: 'upstream-id'; id: string }
  | { type: 'delta'; delta: Omit<ChunkDelta, 'role'> }
  | { type: 'finish'; finishReason: FinishReason }
  | { type: 'usage'; usage: NormalizedUsage }
  | { type: 'error'; code: StreamErrorCode; message: string };

/** One Server-Sent Event as parsed from the upstream byte stream. */
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

/** Stateful, per-request translator of vendor SSE events. Never throws on unknown input: emits an error event. */
export interface StreamTranslator {
  push(event: SseEvent): StreamEvent[];
  /** Upstream closed; flush anything pending (e.g. a finish that only the end implies). */
  end(): StreamEvent[];
}

/** A vendor error mapped to the gateway's HTTP error table. */
export interface UpstreamErrorInfo {
  /** Gateway status to answer with: 400, 401→502, 402, 403, 404, 429, 502, 503 ... */
  status: number;
  message: string;
  /** Mid-stream code when the same failure happens after streaming began. */
  streamCode: StreamErrorCode;
  /** Seconds, from the vendor's Retry-After, when given. */
  retryAfterSeconds?: number;
  /** Vendor's own error type/code, for metadata. */
  upstreamCode?: string;
}

export interface ProviderAdapter {
  buildRequest(request: ChatCompletionRequest, ctx: AdapterContext): UpstreamRequest;
  parseCompletion(body: unknown, ctx: AdapterContext): AdapterCompletion;
  createStreamTranslator(ctx: AdapterContext): StreamTranslator;
  mapError(status: number, body: unknown, headers: Record<string, string | string[] | undefined>, ctx: AdapterContext): UpstreamErrorInfo;
}
