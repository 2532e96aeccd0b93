// One generation behind every front door (chat completions, Anthropic Messages, OpenAI Responses), in the order of
// ARCHITECTURE.md. A door parses its request into the internal GenerationRequest and names its renderers; the HTTP
// layer hands over who asks (the authenticated principal) and answers through the GenerationResponse port.
// Admission, the upstream call, metering and settlement exist once, here and in the files beside this one.
import type { Principal } from '../auth/principal.js';
import type { GenerationRequest } from '../core/generation-request.js';
import type { StreamEvent } from '../core/generation.js';
import type { CompletionRenderer, GenerationIdentity, StreamEnd, StreamRenderer } from '../core/stream-renderer.js';
import type { ClientTraceHeaders } from '../observability/client-trace-context.js';
import type { RequestTrace } from '../observability/gateway-tracer.js';
import { planRoute, type RoutingFields } from '../routing/plan-route.js';
import { admitRoute } from './admit-route.js';
import { recallAffinity, rememberAffinity } from './conversation-affinity.js';
import type { GenerationParts } from './generation-parts.js';
import type { ApiFormat, TrackingHeaders } from './generation-record.js';
import { GenerationRun, type ClientConnection } from './generation-run.js';

export interface FrontDoorRequest {
  apiFormat: ApiFormat;
  /** The door's request, parsed into the internal request. */
  request: GenerationRequest;
  /** The request's routing fields (`models`, `provider`), read from the door's wire body. */
  routing?: RoutingFields;
  /**
   * Drops the door's parsed wire body's prompt (messages, system, input) once the upstream request is built: the wire
   * body stays referenced until the response ends, and a long prompt would otherwise live as long as the stream.
   */
  releasePrompt?: () => void;
  /** Server-Sent Events or one JSON body. */
  stream: boolean;
  renderJson: CompletionRenderer;
  /** `estimatedPromptTokens` is the prompt estimate admission used: what a format that reports prompt usage before
   *  the upstream has answered (Messages' message_start) can show. */
  createStreamRenderer: (identity: GenerationIdentity, estimatedPromptTokens: number) => StreamRenderer;
  /** Protocol headers to forward to an upstream of the door's own protocol (see AdapterContext.clientHeaders). */
  clientHeaders?: Readonly<Record<string, string>>;
  /** The conversation the request belongs to, as the client names it (formats/<door>/session-key.ts), for session affinity. */
  sessionKey?: string;
}

/** Who asks, as the HTTP layer read it from the request. */
export interface GenerationClient {
  /** Step 1, done by the HTTP layer's authentication. */
  principal: Principal;
  tracking: TrackingHeaders;
  /** The client's W3C trace context, passed upstream when the gateway does not trace itself. */
  clientTrace?: ClientTraceHeaders;
  /** The request's span (tracing on). */
  requestTrace?: RequestTrace;
  /** Starts watching the client's connection, once admitted: a refused request has no upstream call to cancel. */
  watchConnection(): ClientConnection;
}

/** How a generation answers; the HTTP layer writes it (http/generation-exchange.ts). */
export interface GenerationResponse {
  /** Headers of the answer, set at once: they go with whatever follows, an error's envelope too. */
  headers(headers: Readonly<Record<string, string>>): void;
  json(body: unknown): void;
  /** Writes the event stream until it ends or the client leaves. */
  events(
    stream: AsyncGenerator<StreamEvent[], StreamEnd | undefined>,
    renderer: StreamRenderer,
    keepAliveMs: number,
    /** The stream's first step when the caller already read it (routing's failover window). */
    first?: IteratorResult<StreamEvent[], StreamEnd | undefined> | Promise<IteratorResult<StreamEvent[], StreamEnd | undefined>>,
  ): Promise<void>;
}

export async function serveGeneration(
  parts: GenerationParts,
  client: GenerationClient,
  door: FrontDoorRequest,
  response: GenerationResponse,
): Promise<void> {
  const { request, stream } = door;
  const { principal } = client; //                                               1 authenticated
  // 2 resolve model → candidate endpoints (routing; the conversation's previous endpoint first while it is healthy),
  // 3 check request (per endpoint when routed)
  const affinity = await recallAffinity(parts, principal, request.model, door.routing, door.sessionKey);
  const plan = planRoute(parts, request, door.routing, affinity?.endpoint);
  const { checked } = plan;
  // 4 admit: rate limits, then credits or quota, covering the most expensive candidate (the charge is the serving
  // endpoint's price); `models` mixing free and paid models may leave out the kind that cannot be admitted
  const { targets, admission, headers } = await admitRoute(parts, principal, plan, request.maxOutputTokens);
  response.headers(headers);
  const target = targets[0];
  const run = new GenerationRun(parts, {
    principal, request, target, targets, admission, stream, checked,
    client: client.watchConnection(), tracking: client.tracking, apiFormat: door.apiFormat, releasePrompt: door.releasePrompt,
    clientHeaders: door.clientHeaders, clientTrace: client.clientTrace, requestTrace: client.requestTrace,
  });
  response.headers({ 'x-generation-id': run.identity.id });
  const keepAliveMs = parts.config.keepAliveSeconds * 1000;
  try {
    // 5 call upstream, failing over between endpoints until one answers (streams: until its first event batch)
    if (stream) {
      const { events, first } = await run.openStream(keepAliveMs);
      void rememberAffinity(parts.affinity, affinity, run.servingEndpoint);
      response.headers(servedBy(run));
      const renderer = door.createStreamRenderer(run.identity, checked.estimatedPromptTokens); //    6+8 translate, respond (SSE)
      await response.events(events, renderer, keepAliveMs, first);
    } else {
      const { completion, totals } = await run.completeRouted(); //                6+8 translate, respond (JSON)
      await rememberAffinity(parts.affinity, affinity, run.servingEndpoint);
      response.headers(servedBy(run));
      response.json(door.renderJson(completion, totals, run.identity));
    }
  } catch (err) {
    run.recordFailure(err);
    throw err;
  } finally {
    // 7 settle, exactly once. Queued, not awaited: the response does not wait for the commit, and the
    // queue is drained before shutdown closes the database.
    void run.settle();
  }
}

/** Which endpoint served, for clients and logs (the body and every chunk say it too). */
function servedBy(run: GenerationRun): Record<string, string> {
  const headers: Record<string, string> = { 'x-modelgate-provider': run.identity.provider, 'x-modelgate-model': run.identity.model };
  // What the serving endpoint was not sent (a hosted tool its vendor cannot run, left out rather than refused).
  if (run.warnings.length > 0) headers['x-modelgate-warning'] = run.warnings.join('; ');
  return headers;
}
