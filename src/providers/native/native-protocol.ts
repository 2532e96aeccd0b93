// The native lane's back door for one wire protocol: the client's request goes upstream as it came (model spliced
// to the upstream name, gateway-only fields removed, the few fields the gateway must force set), and the upstream's
// answer comes back as it came, read only for what the gateway needs: usage and finish to meter, errors to catch,
// generated text to count against limits, and the few rewrites the door's contract promises (ids, model, cost).
// One module per protocol implements it: anthropic/native-messages.ts, openai-compatible/native-chat.ts,
// openai-responses/native-responses.ts, gemini/native-gemini.ts; the provider bundles (bundles.ts) bring them.
import type { AnswerKeeping } from '../../core/answer-keeping.js';
import type { FinishReason, NormalizedUsage, StreamErrorCode } from '../../core/generation.js';
import type { GenerationTotals } from '../../core/stream-renderer.js';
import type { ToolBilling, ToolUses } from '../../core/tool-uses.js';
import type { ServedOptions } from '../../core/served-options.js';
import type { WireProtocol } from '../../core/wire-protocol.js';
import type { AdapterModel, ProviderConfig, SseEvent } from '../adapter.js';
import type { OutgoingRequest } from '../http-client.js';
import type { Redact } from '../redact-credentials.js';

/** The client's request, as the door received it. */
export interface NativeWire {
  /** The body's bytes, as sent. */
  raw: Buffer;
  /** The same body, parsed (and validated by the door's schema). */
  body: Readonly<Record<string, unknown>>;
  /** Top-level fields that are the gateway's own extensions of the door's protocol (routing): never sent upstream. */
  gatewayFields: readonly string[];
  /** The client's protocol headers the upstream may read (`anthropic-version`, `anthropic-beta`, `openai-beta`), never credentials. */
  clientHeaders: Readonly<Record<string, string>>;
}

export interface NativeRequestInput {
  wire: NativeWire;
  provider: ProviderConfig;
  model: AdapterModel;
  /** What the door decided (an omitted `stream` may mean SSE on the chat door). */
  stream: boolean;
  /** The door keeps the answer (stored responses): the upstream keeps nothing, and its state comes back in full. */
  keepsAnswer?: boolean;
}

export interface NativeUpstreamRequest {
  /** The body is the client's bytes, spliced. */
  request: OutgoingRequest;
  /** Said to the client in `x-modelgate-warning` (something the client asked for was changed on the way). */
  warnings: string[];
}

/** Who answers, as the client sees it: what the door's contract rewrites ids and model names to. */
export interface NativeAnswerContext {
  /** The generation id (`gen-…`, also `x-generation-id`). */
  generationId: string;
  /** The gateway model id of the serving endpoint. */
  model: string;
  /** The name the vendor knows the model by (what it bills by: Gemini 2.5 and 3 count web searches apart). */
  upstreamModel: string;
  provider: ProviderConfig;
  /** Removes the gateway's credentials from vendor text that reaches the client (error messages). */
  redact: Redact;
  /** What the request tells about billing its hosted tools, which the answer does not (RequestFacts.toolBilling). */
  toolBilling?: ToolBilling;
  /** The door keeps the answer: its object shows the keeping's fields and the generation id, and is handed over. */
  keeping?: AnswerKeeping;
}

/** What one upstream event (or a whole JSON answer) tells the meter. */
export interface NativeReading {
  upstreamId?: string;
  /** The upstream's final (cumulative) usage, once it reported it. */
  usage?: NormalizedUsage;
  finish?: FinishReason;
  stopSequence?: string;
  /** Characters of generated text, reasoning and tool input in this event: the stream's progress and token rate. */
  generatedChars: number;
  /**
   * Web search requests the answer showed so far (cumulative): billed when the stream ends before the vendor's usage
   * (which carries its own count) arrived.
   */
  webSearches?: number;
  /** Uses of the other hosted tools the answer showed so far (cumulative), billed likewise (core/tool-uses.ts). */
  toolUses?: ToolUses;
  /**
   * The price options the answer says it served (core/served-options.ts), when it says so before its usage: billed
   * when the stream ends before the usage (which carries them too).
   */
  served?: ServedOptions;
  /** The upstream reported a failure (its message redacted). */
  error?: { code: StreamErrorCode; message: string };
  /** No event the upstream sends after this one is passed on (a terminal error). */
  ends?: boolean;
}

/** One upstream event read: what it tells the meter, and the frame(s) to send once the meter has it. */
export interface NativeEvent {
  reading: NativeReading;
  /**
   * The SSE text to send for it (one or more whole events; undefined sends nothing: the door renders the failure
   * itself). Called after the meter observed the reading, so `totals` include this event's usage.
   */
  render(totals: () => GenerationTotals): string | undefined;
}

export interface NativeStreamReader {
  read(event: SseEvent): NativeEvent;
  /**
   * The upstream closed its stream: what the end implies (a stream that never finished is a failure), and what the
   * door still needs sent (chat's `[DONE]`, when the vendor left it out).
   */
  end(): NativeEvent;
}

export interface NativeJsonAnswer {
  reading: NativeReading;
  /** The body to send, after the meter observed the reading. */
  render(totals: GenerationTotals): Buffer;
}

/** The native back door of each wire protocol: the door's request goes there when its endpoint speaks it too. */
export type NativeProtocols = Partial<Record<WireProtocol, NativeProtocol>>;

export interface NativeProtocol {
  /**
   * Whether this request can go to this provider as it is; false sends the attempt down the translated lane (a
   * vendor whose dialect differs inside the conversation, e.g. no `developer` role). Absent: always.
   */
  accepts?(body: Readonly<Record<string, unknown>>, provider: ProviderConfig): boolean;
  buildRequest(input: NativeRequestInput): NativeUpstreamRequest;
  /** A whole JSON answer; throws UpstreamPayloadError for an error inside a 2xx body. */
  readJson(body: Buffer, ctx: NativeAnswerContext): NativeJsonAnswer;
  createStreamReader(ctx: NativeAnswerContext): NativeStreamReader;
  /** True when a stream may bill tokens it never shows (reasoning the vendor keeps to itself): see upstream-link.ts. */
  hidesReasoning(model: AdapterModel, provider: ProviderConfig): boolean;
}

/** Parses one event's JSON data; undefined for anything that is not a JSON object. */
export function readEventJson(data: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** An SSE event as text: the `event:` line when named, then its data (each line of it a `data:` line). */
export function sseText(event: string | undefined, data: string): string {
  const lines = data.includes('\n')
    ? data
        .split('\n')
        .map((line) => `data: ${line}`)
        .join('\n')
    : `data: ${data}`;
  return event === undefined ? `${lines}\n\n` : `event: ${event}\n${lines}\n\n`;
}

/** The operator's static headers for a provider, names lower-cased (the protocol and auth headers are set after them). */
export function operatorHeaders(provider: ProviderConfig): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(provider.headers ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}
