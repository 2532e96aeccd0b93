// A front door described once: everything the gateway knows of a door's protocol, grouped in one object per door
// (formats/<door>/door.ts) from the functions that door's folder holds. The pipeline and routing never see a door's
// JSON: they get the facts it reads (core/request-facts.ts), its request translated on demand, and its renderers.
import type { IncomingHttpHeaders } from 'node:http';
import type { DoorErrorShape } from '../../core/door-error-shape.js';
import type { GenerationRequest } from '../../core/generation-request.js';
import type { RequestFacts } from '../../core/request-facts.js';
import type { CompletionRenderer, GenerationIdentity, StreamRenderer } from '../../core/stream-renderer.js';
import type { WireProtocol } from '../../core/wire-protocol.js';

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

export interface FrontDoor<Body> {
  /** The protocol it speaks: an endpoint that speaks it too takes the native lane. */
  protocol: WireProtocol;
  apiFormat: DoorFormat;
  /** What routing and admission read of the request (offered tools, search limits, attachments, output cap, ...). */
  readFacts(body: Body, model: string): RequestFacts;
  /** The conversation the request belongs to, for session affinity: the door's body field, else the session headers. */
  sessionKey(body: Body, headers: IncomingHttpHeaders): string | undefined;
  /** The client's protocol headers the native lane forwards (never credentials). */
  clientHeaders(headers: IncomingHttpHeaders): Record<string, string>;
  /** The internal request, for the translated lane. */
  parse(body: Body, options: DoorParseOptions): GenerationRequest;
  renderers(body: Body): DoorRenderers;
  /** Its error bodies; none: the gateway's own envelope (core/gateway-error.ts). */
  errorShapes: readonly DoorErrorShape[];
}
