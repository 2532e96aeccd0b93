// One upstream attempt, observed: counted by outcome (modelgate_upstream_attempts_total) and, with tracing on,
// wrapped in a CLIENT span (GenAI conventions) that is the active context while the request is handed to the
// transport, so the transport's traceparent header names this span. The span ends when the response head arrives
// (or the attempt fails); the body is the request span's time.
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { GatewayError } from '../core/gateway-error.js';
import type { AdapterContext } from '../providers/adapter.js';
import { activeTracer } from './tracer.js';

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

export function observeUpstreamAttempt<T extends { status: number }>(
  observer: UpstreamAttemptObserver | undefined,
  ctx: AdapterContext,
  send: () => Promise<T>,
): Promise<T> {
  const tracer = activeTracer();
  if (tracer === undefined && observer === undefined) return send();
  const provider = ctx.provider.id;
  const span = tracer?.startSpan(`chat ${ctx.model.upstreamModel}`, {
    kind: SpanKind.CLIENT,
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': provider, 'gen_ai.request.model': ctx.model.upstreamModel },
  });
  const sending = span ? context.with(trace.setSpan(context.active(), span), send) : send();
  return sending.then(
    (response) => {
      observer?.upstreamAttempt(provider, 'ok');
      span?.setAttribute('http.response.status_code', response.status);
      span?.end();
      return response;
    },
    (err: unknown) => {
      const outcome = attemptOutcome(err);
      observer?.upstreamAttempt(provider, outcome);
      if (span) {
        const upstreamStatus = err instanceof GatewayError ? Number(err.metadata.upstream_status) : NaN;
        if (Number.isFinite(upstreamStatus)) span.setAttribute('http.response.status_code', upstreamStatus);
        span.setAttribute('error.type', outcome);
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
      throw err;
    },
  );
}
