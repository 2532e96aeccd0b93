// One upstream attempt, observed: counted by outcome (modelgate_upstream_attempts_total, when the head arrives or the
// attempt fails) and, with tracing on, wrapped in a CLIENT span (GenAI conventions), child of the request span, whose
// context is handed to the transport, so the transport's traceparent header names this span. The span covers the
// whole exchange: an answer with an error status ends it at once; a successful head leaves it open until the
// pipeline is done with the body (endUpstreamAttempt: the stream ended, failed or the client left), so its duration
// is the stream's and its outcome how the stream ended, with what the upstream reported (id, finish, usage).
// Contexts are passed explicitly (see gateway-tracer.ts): nothing here reads or sets an active context.
import { GatewayError } from '../core/gateway-error.js';
import type { AdapterContext } from '../providers/adapter.js';
import {
  classifyTransportError,
  type UpstreamAttemptObserver,
  type UpstreamResponse,
} from '../providers/http-client.js';
import type { AttemptTrace, RequestTrace } from './gateway-tracer.js';

/** Attempt spans whose body is still being read, by body: only ever filled with tracing on. */
const openAttempts = new WeakMap<object, AttemptTrace>();

/** ok, http_429, http_4xx, http_5xx, timeout, unreachable, aborted, failed, queue_timeout: a bounded set. */
export function attemptOutcome(err: unknown): string {
  if (!(err instanceof GatewayError)) return 'failed';
  const upstreamStatus = Number(err.metadata.upstream_status);
  if (upstreamStatus === 429) return 'http_429';
  if (upstreamStatus >= 400 && upstreamStatus < 500) return 'http_4xx';
  if (upstreamStatus >= 500 && upstreamStatus < 600) return 'http_5xx';
  if (upstreamStatus >= 200 && upstreamStatus < 300) return 'failed';
  switch (err.metadata.reason) {
    case 'upstream_timeout':
      return 'timeout';
    case 'upstream_unreachable':
      return 'unreachable';
    case 'client_disconnected':
      return 'aborted';
    case 'upstream_queue_timeout':
      return 'queue_timeout';
    default:
      return 'failed';
  }
}

export function observeUpstreamAttempt<T extends { status: number; body: object }>(
  observer: UpstreamAttemptObserver | undefined,
  ctx: AdapterContext,
  /** The request's span (tracing on), the parent of the attempt span. */
  requestTrace: RequestTrace | undefined,
  /** Sends the attempt; `attempt` is the span whose context goes upstream (tracing on). */
  send: (attempt?: AttemptTrace) => Promise<T>,
): Promise<T> {
  if (requestTrace === undefined && observer === undefined) return send();
  const provider = ctx.provider.id;
  const attempt = requestTrace?.startAttempt(provider, ctx.model.upstreamModel);
  const sending = send(attempt);
  return sending.then(
    (response) => {
      observer?.upstreamAttempt(provider, 'ok');
      if (attempt) {
        attempt.httpStatus = response.status;
        // The body is still to come: the span ends with it (endUpstreamAttempt). An unsampled one has nothing to wait
        // for.
        if (attempt.sampled) openAttempts.set(response.body, attempt);
        else attempt.end();
      }
      return response;
    },
    (err: unknown) => {
      const outcome = attemptOutcome(err);
      observer?.upstreamAttempt(provider, outcome);
      if (attempt) {
        const upstreamStatus = err instanceof GatewayError ? Number(err.metadata.upstream_status) : NaN;
        if (Number.isFinite(upstreamStatus)) attempt.httpStatus = upstreamStatus;
        attempt.failedAtHead = outcome;
        attempt.end();
      }
      throw err;
    },
  );
}

/** What the upstream reported during the attempt (the generation meter, reset between attempts). */
export interface AttemptReport {
  upstreamId?: string;
  finishReason?: string;
  /** Absent when the upstream reported none (the gateway's estimate is not the upstream's word). */
  usage?: { promptTokens: number; completionTokens: number };
}

/** How the pipeline finished with a successful head's body. */
export interface AttemptEnd {
  /** The client went away. */
  aborted?: boolean;
  /** Reading or translating the body failed (transport error, malformed payload). */
  error?: unknown;
  /** The stream ended with an error event (the upstream's, or the gateway's own cut: token rate). */
  streamError?: string;
  report?: AttemptReport;
}

/**
 * Ends the attempt span of this response once (a no-op with tracing off, or when already ended). Called where the
 * pipeline is done with the body: the end of the event stream (every way it ends) or of the JSON body.
 */
export function endUpstreamAttempt(response: UpstreamResponse, end: AttemptEnd): void {
  const attempt = openAttempts.get(response.body);
  if (attempt === undefined) return;
  openAttempts.delete(response.body);
  const report = end.report;
  attempt.upstreamId = report?.upstreamId;
  attempt.finishReason = report?.finishReason;
  attempt.inputTokens = report?.usage?.promptTokens;
  attempt.outputTokens = report?.usage?.completionTokens;
  attempt.bodyError = bodyOutcome(end);
  attempt.end();
}

/** undefined for a body read to its end; else why it was not, in the outcome vocabulary (or the stream's error code). */
function bodyOutcome(end: AttemptEnd): string | undefined {
  if (end.aborted) return 'aborted';
  if (end.error !== undefined) {
    if (end.error instanceof GatewayError) return attemptOutcome(end.error);
    const reason = classifyTransportError(end.error).reason;
    return reason === 'aborted' ? 'aborted' : reason === 'timeout' ? 'timeout' : 'failed';
  }
  return end.streamError;
}
