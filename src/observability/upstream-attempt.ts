// One upstream attempt, observed: counted by outcome (modelgate_upstream_attempts_total, when the head arrives or the
// attempt fails) and, with tracing on, wrapped in a CLIENT span (GenAI conventions), child of the request span, whose
// context is handed to the transport, so the transport's traceparent header names this span. The span covers the
// whole exchange: an answer with an error status ends it at once; a successful head leaves it open until the
// pipeline is done with the body (endUpstreamAttempt: the stream ended, failed or the client left), so its duration
// is the stream's and its outcome how the stream ended, with what the upstream reported (id, finish, usage).
// Contexts are passed explicitly (see request-span.ts): nothing here reads or sets an active context.
import { SpanKind, SpanStatusCode, type Context, type Span } from '@opentelemetry/api';
import { GatewayError } from '../core/gateway-error.js';
import type { AdapterContext } from '../providers/adapter.js';
import { classifyTransportError, type UpstreamResponse } from '../providers/http-client.js';
import { genAiProviderName } from './gen-ai-provider-name.js';
import { activeTracer } from './tracer.js';

/** Attempt spans whose body is still being read, by body: only ever filled with tracing on. */
const openAttempts = new WeakMap<object, Span>();

export interface UpstreamAttemptObserver {
  upstreamAttempt(provider: string, outcome: string): void;
}

/** ok, http_429, http_4xx, http_5xx, timeout, unreachable, aborted, failed: a bounded set. */
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
    default:
      return 'failed';
  }
}

export function observeUpstreamAttempt<T extends { status: number; body: object }>(
  observer: UpstreamAttemptObserver | undefined,
  ctx: AdapterContext,
  /** The request span's context (tracing on), the parent of the attempt span. */
  parent: Context | undefined,
  /** Sends the attempt; `attempt` is the span whose context goes upstream (tracing on). */
  send: (attempt?: Span) => Promise<T>,
): Promise<T> {
  const tracer = parent === undefined ? undefined : activeTracer();
  if (tracer === undefined && observer === undefined) return send();
  const provider = ctx.provider.id;
  // The attributes are the sampler's input too, so they are given at the start even when the span ends up unsampled.
  const span = tracer?.startSpan(`chat ${ctx.model.upstreamModel}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': genAiProviderName(provider), 'gen_ai.request.model': ctx.model.upstreamModel,
      'modelgate.provider': provider,
    },
  }, parent);
  const sending = send(span);
  return sending.then(
    (response) => {
      observer?.upstreamAttempt(provider, 'ok');
      if (span) {
        if (span.isRecording()) {
          span.setAttribute('http.response.status_code', response.status);
          // The body is still to come: the span ends with it (endUpstreamAttempt).
          openAttempts.set(response.body, span);
        } else span.end();
      }
      return response;
    },
    (err: unknown) => {
      const outcome = attemptOutcome(err);
      observer?.upstreamAttempt(provider, outcome);
      if (span) {
        if (span.isRecording()) {
          const upstreamStatus = err instanceof GatewayError ? Number(err.metadata.upstream_status) : NaN;
          if (Number.isFinite(upstreamStatus)) span.setAttribute('http.response.status_code', upstreamStatus);
          span.setAttribute('error.type', outcome);
          span.setAttribute('modelgate.attempt.outcome', outcome);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
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
  const span = openAttempts.get(response.body);
  if (span === undefined) return;
  openAttempts.delete(response.body);
  const report = end.report;
  const errorType = bodyOutcome(end);
  // setAttribute per attribute: the SDK's setAttributes(object) loops over Object.entries(), measured slower.
  if (report?.upstreamId) span.setAttribute('gen_ai.response.id', report.upstreamId);
  if (report?.finishReason) span.setAttribute('gen_ai.response.finish_reasons', [report.finishReason]);
  if (report?.usage) {
    span.setAttribute('gen_ai.usage.input_tokens', report.usage.promptTokens);
    span.setAttribute('gen_ai.usage.output_tokens', report.usage.completionTokens);
  }
  span.setAttribute('modelgate.attempt.outcome', errorType ?? 'ok');
  if (errorType !== undefined) {
    span.setAttribute('error.type', errorType);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
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
