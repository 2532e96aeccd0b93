// The one interface every provider adapter implements. Adapters are pure: they build a vendor HTTP
// request description and translate vendor payloads back; the transport (http-client.ts) does the I/O.
import type { PriceOption } from '../core/served-options.js';
import type { GenerationRequest, Tool } from '../core/generation-request.js';
import type { GenerationResult, StreamErrorCode, StreamEvent } from '../core/generation.js';
import type { ProviderKind } from '../core/provider-kind.js';
import type { WireProtocol } from '../core/wire-protocol.js';

/** Where and how to reach one vendor; built from <PROVIDER>_API_KEY / <PROVIDER>_BASE_URL. */
export interface ProviderConfig {
  /** Provider slug as used in model ids: "openai", "deepseek", "anthropic", ... */
  id: string;
  /** Which adapter serves it. */
  kind: ProviderKind;
  baseUrl: string;
  /** Absent when the operator configured no key: the gateway answers 503 without calling out. */
  apiKey?: string;
  /** Vendor quirks for OpenAI-compatible upstreams (see openai-compatible/vendors.ts). */
  quirks?: Record<string, unknown>;
  /** Extra static headers the vendor wants (e.g. OpenRouter's HTTP-Referer). */
  headers?: Record<string, string>;
  /**
   * The upstream protocols the provider speaks (registry.ts derives them from its kind and vendor): a door of one of
   * them sends its requests there natively. Absent on a hand-built configuration: derived when read
   * (upstreamProtocols).
   */
  protocols?: readonly WireProtocol[];
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
  /**
   * The served values of each price option the endpoint prices (catalog `pricing.multipliers`): what the native lanes
   * send of a request's `service_tier`, `speed`, `inference_geo` (providers/native/price-options.ts); absent: none.
   */
  pricedOptions?: PricedOptions;
}

/** Served values priced, by option (core/served-options.ts). */
export type PricedOptions = Readonly<Partial<Record<PriceOption, readonly string[]>>>;

export interface AdapterContext {
  provider: ProviderConfig;
  model: AdapterModel;
  stream: boolean;
  /**
   * Protocol headers of the client's request that an adapter of the same protocol forwards as they are (the
   * Anthropic Messages door: `anthropic-version`, `anthropic-beta`). Never credentials.
   */
  clientHeaders?: Readonly<Record<string, string>>;
  /**
   * The tools the client declared (the translated request's), the same on every attempt: what an adapter restores a
   * reply's tool calls with (a flattened namespaced name, a custom tool offered as a function).
   */
  tools?: readonly Tool[];
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

/** A vendor's error answer as it came: its status, its body (parsed JSON, text or bytes) and its headers. */
export interface ErrorAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string | string[] | undefined>;
}

/**
 * Who answered with an error, and when: `now` dates a Retry-After, `endpoint` is what a 404 that names no model
 * blames. Each vendor's mapper has its own defaults.
 */
export interface ErrorSource {
  providerId?: string;
  now?: number;
  endpoint?: string;
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

/**
 * A back door on the translated lane: the gateway's GenerationRequest → the vendor's HTTP request, and the vendor's
 * answer (JSON or events) → the gateway's GenerationResult or StreamEvents.
 */
export interface ProviderAdapter {
  buildRequest(request: GenerationRequest, ctx: AdapterContext): UpstreamRequest;
  parseCompletion(body: unknown, ctx: AdapterContext): GenerationResult;
  createStreamTranslator(ctx: AdapterContext): StreamTranslator;
  mapError(answer: ErrorAnswer, ctx: AdapterContext): UpstreamErrorInfo;
  /** False when this provider takes no PDF `file` parts, so routing skips it for such requests (absent: it does). */
  acceptsFileParts?(provider: ProviderConfig): boolean;
  /**
   * True when a stream of this request may bill tokens it never shows (reasoning the vendor keeps to itself): a
   * client that leaves early then has its upstream read on, bounded, for the vendor's own usage (absent: false).
   */
  hidesReasoning?(request: GenerationRequest, ctx: AdapterContext): boolean;
  /**
   * What this request loses on the way to the vendor, one sentence each (a hosted tool the vendor cannot run, left
   * out rather than refused): sent to the client in `x-modelgate-warning` (absent: nothing).
   */
  warnings?(request: GenerationRequest, ctx: AdapterContext): string[];
}

/** The adapter for each API kind this build includes; a provider of a kind without one is answered 503. */
export type ProviderAdapters = Partial<Record<ProviderKind, ProviderAdapter>>;
