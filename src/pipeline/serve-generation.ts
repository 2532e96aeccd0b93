// One generation behind every front door (chat completions, Anthropic Messages, OpenAI Responses), in the order of
// ARCHITECTURE.md. A door hands over its protocol, the facts planning and admission read, the client's own request
// (bytes and parsed body, for the native lane), a lazy translation into the internal request and its renderers (for
// the translated lane); the HTTP layer hands over who asks (the authenticated principal) and answers through the
// GenerationResponse port. Admission, the upstream call, metering and settlement exist once, here and in the files
// beside this one, whatever lane each attempt takes.
import type { Principal } from '../auth/principal.js';
import type { FrameSource } from '../core/frame-source.js';
import type { CompletionRenderer, GenerationIdentity, StreamRenderer } from '../core/stream-renderer.js';
import type { ClientTraceHeaders } from '../observability/client-trace-context.js';
import type { RequestTrace } from '../observability/gateway-tracer.js';
import type { RateReport } from '../core/rate-report.js';
import { planRoute } from '../routing/plan-route.js';
import type { OwnKeyRouting } from '../routing/own-key-targets.js';
import type { RequestFacts } from '../core/request-facts.js';
import type { GenerationDoor } from './generation-door.js';
import { admitRoute } from './admit-route.js';
import { budgetHeaders } from '../billing/budget-admission.js';
import { candidateSpend } from './candidate-spend.js';
import { nativeLaneOf } from './native-lane.js';
import { nativeAllowed } from './generation-door.js';
import { guardrailsHeader } from '../guardrails/door-guardrails.js';
import { guardrailBlocked, recordBlocked } from './guardrail-block.js';
import type { Target } from '../routing/resolve-target.js';
import { recallAffinity, rememberAffinity } from './conversation-affinity.js';
import type { GenerationParts } from './generation-parts.js';
import type { ApiFormat, TrackingHeaders } from './generation-record.js';
import { GenerationRun } from './generation-run.js';
import type { ClientConnection } from './generation-run-input.js';
import { nativeFrames, translatedFrames } from './stream-frames.js';

export interface FrontDoorRequest extends GenerationDoor {
  apiFormat: ApiFormat;
  /** What planning and admission read, computed by the door from its wire body. */
  facts: RequestFacts;
  /** Server-Sent Events or one JSON body. */
  stream: boolean;
  /** The translated lane's JSON body. */
  renderJson: CompletionRenderer;
  /**
   * The translated lane's stream renderer; on the native lane it renders only a failure the upstream's own events
   * did not tell (and its keep-alive). `estimatedPromptTokens` is the prompt estimate admission used: what a format
   * that reports prompt usage before the upstream has answered (Messages' message_start) can show.
   */
  createStreamRenderer: (identity: GenerationIdentity, estimatedPromptTokens: number) => StreamRenderer;
  /** The conversation the request belongs to, as the client names it (formats/<door>/session-key.ts), for session affinity. */
  sessionKey?: string;
  /** The session's budget the client gives (X-Modelgate-Session-Budget), in nano-USD. */
  sessionBudgetNanos?: bigint;
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
  /**
   * The key's rate state when the request was already counted against its per-minute limits (the response cache
   * admits a request before its lookup, read-response-cache.ts): admission then does not count it again.
   */
  requestCounted?: RateReport;
}

/** How a generation answers; the HTTP layer writes it (http/generation-exchange.ts). */
export interface GenerationResponse {
  /** Headers of the answer, set at once: they go with whatever follows, an error's envelope too. */
  headers(headers: Readonly<Record<string, string>>): void;
  /** The key's rate state, sent as the door's rate-limit headers, at once like `headers`. */
  rate(report: RateReport): void;
  json(body: unknown): void;
  /** A JSON body already serialised (the native lane's: the upstream's own, with the door's rewrites). */
  jsonBytes(body: Buffer): void;
  /**
   * Writes a stream (either lane's, stream-frames.ts, or a cached answer's) until it ends or the client leaves, with a
   * keep-alive after `keepAliveMs` of silence; false when the client left before its end.
   */
  stream<T, E>(source: FrameSource<T, E>, keepAliveMs: number): Promise<boolean>;
}

export async function serveGeneration(
  parts: GenerationParts,
  client: GenerationClient,
  door: FrontDoorRequest,
  response: GenerationResponse,
): Promise<void> {
  const { facts, stream } = door;
  const { principal } = client; //                                               1 authenticated
  response.headers(guardrailsHeader(door.guardrails));
  const blockedBy = door.guardrails?.blockedBy;
  if (blockedBy !== undefined) return refuseBlocked(parts, client, { door, blockedBy, fired: door.guardrails!.fired });
  // 2 resolve model → candidate endpoints (routing; the conversation's previous endpoint first while it is healthy),
  // 3 check request (per endpoint when routed)
  const affinity = await recallAffinity(parts, principal, facts.model, facts, door.sessionKey);
  const plan = planRoute(parts, facts, {
    affineEndpoint: affinity?.endpoint,
    own: await ownKeyRouting(parts, principal),
  });
  const { checked } = plan;
  // 4 admit: rate limits, then credits or quota, covering the most expensive candidate (the charge is the serving
  // endpoint's price); `models` mixing free and paid models may leave out the kind that cannot be admitted
  const spendOf = (target: Target) =>
    candidateSpend(
      facts,
      () => nativeAllowed(door) && nativeLaneOf(door.protocol, target, door.wire.body, parts.natives) !== undefined,
    );
  const { targets, admission, rate } = await admitRoute(parts, principal, plan, {
    requestedMaxTokens: facts.maxOutputTokens,
    spendOf,
    requestCounted: client.requestCounted,
    session: door.sessionKey === undefined ? undefined : { key: door.sessionKey, budgetNanos: door.sessionBudgetNanos },
  });
  response.rate(rate);
  response.headers(budgetHeaders(admission.budgets));
  const target = targets[0];
  const run = new GenerationRun(parts, {
    principal,
    door,
    facts,
    target,
    targets,
    admission,
    stream,
    checked,
    client: client.watchConnection(),
    tracking: client.tracking,
    apiFormat: door.apiFormat,
    clientTrace: client.clientTrace,
    requestTrace: client.requestTrace,
  });
  response.headers({ 'x-generation-id': run.identity.id });
  const keepAliveMs = parts.config.keepAliveSeconds * 1000;
  try {
    // 5 call upstream, failing over between endpoints until one answers (streams: until its first event batch)
    if (stream) {
      const opened = await run.openStream(keepAliveMs);
      void rememberAffinity(parts.affinity, affinity, run.servingEndpoint);
      response.headers({ ...servedBy(run), ...guardrailsHeader(door.guardrails) });
      const renderer = door.createStreamRenderer(run.identity, checked.estimatedPromptTokens); //    6+8 translate, respond (SSE)
      if (opened.lane === 'native') await response.stream(nativeFrames(opened, renderer), keepAliveMs);
      else await response.stream(translatedFrames(opened, renderer), keepAliveMs);
    } else {
      const answer = await run.completeRouted(); //                                  6+8 translate, respond (JSON)
      await rememberAffinity(parts.affinity, affinity, run.servingEndpoint);
      response.headers({ ...servedBy(run), ...guardrailsHeader(door.guardrails) });
      // 7 settle before the body (it tells the cost) leaves: a crash now cannot lose a bill the client was told.
      // Streams settle at their end the same way (generation-run.ts).
      await run.settle();
      if (answer.lane === 'native') response.jsonBytes(answer.body);
      else response.json(door.renderJson(answer.completion, answer.totals, run.identity));
    }
  } catch (err) {
    run.recordFailure(err);
    // The output stage may have fired on an answer it then blocked.
    response.headers(guardrailsHeader(door.guardrails));
    throw err;
  } finally {
    // 7 settle, exactly once: here when the request failed or its client left (nothing more to tell it), and the
    // queue is drained before shutdown closes the database.
    void run.settle();
  }
}

/**
 * A request an input guardrail blocked: its model resolved (the record names it) with no own keys and no admission,
 * recorded with cost 0, and refused with 403 before anything goes upstream.
 */
async function refuseBlocked(
  parts: GenerationParts,
  client: GenerationClient,
  { door, blockedBy, fired }: { door: FrontDoorRequest; blockedBy: string; fired: readonly string[] },
): Promise<never> {
  const plan = planRoute(parts, door.facts);
  const error = guardrailBlocked(blockedBy);
  await recordBlocked(parts, {
    principal: client.principal,
    target: plan.targets[0]!,
    stream: door.stream,
    tracking: client.tracking,
    apiFormat: door.apiFormat,
    fired,
    error,
  });
  throw error;
}

/** The organization's own provider keys (from memory once loaded); undefined when it has none. */
async function ownKeyRouting(parts: GenerationParts, principal: Principal): Promise<OwnKeyRouting | undefined> {
  const cached = parts.providerKeys?.keysOf(principal.organizationId);
  const keys = cached instanceof Promise ? await cached : cached;
  return keys === undefined || keys.byProvider.size === 0 ? undefined : { keys, feePpm: parts.config.byokFeePpm };
}

/** Which endpoint served, for clients and logs (the body and every chunk say it too). */
function servedBy(run: GenerationRun): Record<string, string> {
  const headers: Record<string, string> = {
    'x-modelgate-provider': run.identity.provider,
    'x-modelgate-model': run.identity.model,
  };
  // What the native lane changed of the client's request (a service tier it does not price), or what the serving endpoint was
  // not sent on the translated lane (a hosted tool its vendor cannot run, left out rather than refused).
  if (run.warnings.length > 0) headers['x-modelgate-warning'] = headerText(run.warnings.join('; '));
  return headers;
}

const WARNING_MAX_CHARS = 1024;

/**
 * A warning names the client's own tool types and names, which may hold any character: a header value takes visible
 * ASCII only (anything else made Node throw, a 500), so the rest is written as JSON escapes, and the whole is bounded.
 */
function headerText(text: string): string {
  const escaped = text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length <= WARNING_MAX_CHARS ? escaped : `${escaped.slice(0, WARNING_MAX_CHARS - 3)}...`;
}
