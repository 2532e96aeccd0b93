// One SERVER span per generation request, following the OpenTelemetry GenAI semantic conventions. It continues the
// client's W3C trace (traceparent), is the parent of one CLIENT span per upstream attempt (upstream-attempt.ts), and
// reports the generation record it is given at settlement (annotateRequestSpan). No prompt or completion text is
// ever put on a span. Recorded as fields (gateway-tracer.ts); its attributes are written at export (gateway-spans.ts).
//
// The trace is passed along explicitly (Koa state → GenerationRun → attempt → transport), never through an
// active-context manager: the AsyncLocalStorage manager that `provider.register()` installs makes every async
// resource of every request carry the context, which measured as most of tracing's cost per request.
import type { Context as KoaContext, Middleware } from 'koa';
import type { NewGeneration } from '../db/tables/generations.js';
import { clientParentSpanContext } from './client-trace-context.js';
import type { GatewayTracer, RequestTrace } from './gateway-tracer.js';

/** The generation front doors: chat completions, Messages and Responses. */
const GENERATION_PATH = /\/(chat\/completions|messages|responses)$/;

export function requestSpans(tracer: GatewayTracer): Middleware {
  // Not an async function: an `await next()` inside try/finally measured ~5% more CPU per request on the serving
  // thread than the same work chained with then() (side by side, c=16).
  return (ctx, next) => {
    if (ctx.method !== 'POST' || !GENERATION_PATH.test(ctx.path)) return next();
    const requestTrace = tracer.startRequest(clientParentSpanContext(ctx.headers));
    ctx.state.requestTrace = requestTrace;
    // Ended with the answer's final status (the error envelope has run: errors have theirs too).
    return next().then(
      () => requestTrace.end(ctx.status),
      (err: unknown) => {
        requestTrace.end(ctx.status);
        throw err;
      },
    );
  };
}

/** The request's trace (set by requestSpans), or undefined with tracing off. */
export function requestTraceOf(ctx: KoaContext): RequestTrace | undefined {
  return ctx.state.requestTrace as RequestTrace | undefined;
}

/** What the request span reports: the generation record (settlement). */
export function annotateRequestSpan(requestTrace: RequestTrace, record: NewGeneration): void {
  if (requestTrace.sampled && requestTrace.endMs === 0) requestTrace.record = record;
}
