// One SERVER span per generation request, following the OpenTelemetry GenAI semantic conventions. It continues the
// client's W3C trace (traceparent), is the parent of one CLIENT span per upstream attempt (call-upstream.ts), and
// gets its gen_ai.* attributes from the generation record at settlement (annotateRequestSpan). No prompt or
// completion text is ever put on a span.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import type { NewGeneration } from '../db/tables/generations.js';
import { genAiProviderName } from './gen-ai-provider-name.js';

/** The generation front doors: chat completions today, Messages and Responses as they land. */
const GENERATION_PATH = /\/(chat\/completions|messages|responses)$/;
/** Spans whose error.type came from their record (more precise than the HTTP status). */
const typedErrors = new WeakSet<Span>();

export function requestSpans(tracer: Tracer): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || !GENERATION_PATH.test(ctx.path)) return next();
    const parent = propagation.extract(ROOT_CONTEXT, ctx.headers);
    // Renamed to `chat {model}` once the model is resolved (at settlement).
    const span = tracer.startSpan('chat', { kind: SpanKind.SERVER, attributes: { 'gen_ai.operation.name': 'chat' } }, parent);
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      span.setAttribute('http.response.status_code', ctx.status);
      if (ctx.status >= 400) {
        // A refusal before any upstream call (401, 402, 429...) has no record: the HTTP status is the error type.
        if (!typedErrors.has(span)) span.setAttribute('error.type', String(ctx.status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    }
  };
}

/** SettlementQueue.observer: runs inside the request's context, so the active span is the request's. */
export function annotateRequestSpan(record: NewGeneration): void {
  const span = trace.getActiveSpan();
  if (!span || !span.isRecording()) return;
  span.updateName(`chat ${record.model}`);
  span.setAttributes({
    'gen_ai.provider.name': genAiProviderName(record.provider),
    'modelgate.provider': record.provider,
    'gen_ai.request.model': record.model,
    'gen_ai.response.model': record.upstream_model,
    'gen_ai.response.id': record.id,
    'gen_ai.usage.input_tokens': record.prompt_tokens ?? 0,
    'gen_ai.usage.output_tokens': record.completion_tokens ?? 0,
    'modelgate.generation.status': record.status,
  });
  if (record.finish_reason) span.setAttribute('gen_ai.response.finish_reasons', [record.finish_reason]);
  if (record.status !== 'success') {
    span.setAttribute('error.type', record.error_code ?? record.status);
    typedErrors.add(span);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}
