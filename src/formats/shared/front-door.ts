// A front door described once: everything the gateway knows of a door's protocol, grouped in one object per door
// (formats/<door>/door.ts) from the functions that door's folder holds. The pipeline and routing never see a door's
// JSON: they get the facts it reads (core/request-facts.ts), its request translated on demand, and its renderers.
import type { IncomingHttpHeaders } from 'node:http';
import type { Catalog } from '../../catalog/catalog.js';
import type { AnswerKeeping } from '../../core/answer-keeping.js';
import type { Continuation, ResponseState } from '../../response-state/continue-response.js';
import type { ResponseMemory, TurnOwner } from '../../core/stored-turn.js';
import type { DoorErrorShape } from '../../core/door-error-shape.js';
import type { GenerationRequest } from '../../core/generation-request.js';
import type { RequestFacts } from '../../core/request-facts.js';
import type {
  CompletionRenderer,
  GenerationIdentity,
  StreamFraming,
  StreamRenderer,
} from '../../core/stream-renderer.js';
import type { WireProtocol } from '../../core/wire-protocol.js';
import type { PresetSettings } from '../../core/preset.js';
import type { RateLimitHeaders } from './rate-limit-headers.js';

/** The door's name in generation records, metrics and traces. */
export type DoorFormat = 'chat_completions' | 'messages' | 'responses' | 'gemini';

/** What the translation takes beside the body. */
export interface DoorParseOptions {
  /** The gateway model id the request names (the door may name models its own way). */
  model: string;
  stream: boolean;
  /**
   * The client asked for automatic prompt caching (formats/shared/auto-cache-header.ts); the doors whose clients mark
   * their own cache breakpoints (Messages) or whose upstream caches by itself (Gemini) ignore it.
   */
  autoCache: boolean;
}

/** The translated lane's renderers of one request. */
export interface DoorRenderers {
  renderJson: CompletionRenderer;
  /** `estimatedPromptTokens`: admission's prompt estimate, for a format that reports usage before the upstream does. */
  createStreamRenderer(identity: GenerationIdentity, estimatedPromptTokens: number): StreamRenderer;
}

/** One request as the generic generation handler hands it to its door: the body, and what else of it a door reads. */
export interface DoorCall<Body> {
  body: Body;
  /** The API operation it came through (a door may serve several: Gemini's :generateContent and its stream). */
  operationId: string;
  /** A path parameter as the router parsed it (still percent-encoded). */
  pathParam(name: string): string | undefined;
  /** A query parameter's first value. */
  query(name: string): string | undefined;
  headers: IncomingHttpHeaders;
}

/** What a door's continuation reads beside the body. */
export interface ContinueFromInput {
  state: ResponseState;
  owner: TurnOwner;
  /** The edge's own memory (a WebSocket's), consulted first and given every turn. */
  local?: ResponseMemory;
}

/** What of the gateway a door reads to name the model and the answer's form. */
export interface DoorSettings {
  catalog: Pick<Catalog, 'get'>;
  /** What an omitted `stream` means where the door leaves it open (MODELGATE_STREAM_DEFAULT). */
  streamDefault: boolean;
}

export interface FrontDoor<Body> {
  /** The protocol it speaks: an endpoint that speaks it too takes the native lane. */
  protocol: WireProtocol;
  apiFormat: DoorFormat;
  /** The API operations (spec/) it serves, each by the generic generation handler (handlers/generation-handler.ts). */
  operationIds: readonly string[];
  /** The gateway model id the request names: the body's, or the path's, in the door's own naming. */
  modelOf(call: DoorCall<Body>, settings: DoorSettings): string;
  /** How the answer is sent: undefined for one JSON body, else the stream's framing. */
  streamOf(call: DoorCall<Body>, settings: DoorSettings): StreamFraming | undefined;
  /**
   * The request with a preset's settings put where this door keeps them (its system prompt, sampling, output cap,
   * reasoning, tools), each only where the request leaves it out; the model, fallbacks and provider preferences are
   * the door request's (http/door-request.ts). A Body, typed unknown as continueFrom's is.
   */
  withPreset(body: Body, preset: PresetSettings): unknown;
  /** What routing and admission read of the request (offered tools, search limits, attachments, output cap, ...). */
  readFacts(body: Body, model: string): RequestFacts;
  /** The conversation the request belongs to, for session affinity: the door's body field, else the session headers. */
  sessionKey(body: Body, headers: IncomingHttpHeaders): string | undefined;
  /** The client's protocol headers the native lane forwards (never credentials). */
  clientHeaders(headers: IncomingHttpHeaders): Record<string, string>;
  /** The internal request, for the translated lane. */
  parse(body: Body, options: DoorParseOptions): GenerationRequest;
  /** `keeping`: the door keeps the answer (continueFrom said so); its renderers show and hand over the final one. */
  renderers(body: Body, keeping?: AnswerKeeping): DoorRenderers;
  /**
   * State the door keeps between requests (the Responses door's stored responses): what the request continues,
   * expanded into its body (a Body: typed unknown so a door's descriptor stays one of every door's), and how its answer
   * is kept. Runs before the facts are read. Absent: requests stand alone.
   */
  continueFrom?(body: Body, input: ContinueFromInput): Promise<Continuation<unknown>>;
  /** Its error bodies; none: the gateway's own envelope (core/gateway-error.ts). */
  errorShapes: readonly DoorErrorShape[];
  /** How its answers and refusals tell the key's rate-limit state: the headers its clients read (rate-limit-headers.ts). */
  rateLimitHeaders: RateLimitHeaders;
}
