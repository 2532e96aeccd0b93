// One SERVER span per generation request, following the OpenTelemetry GenAI semantic conventions. It continues the
// client's W3C trace (traceparent), is the parent of one CLIENT span per upstream attempt (upstream-attempt.ts), and
// reports the generation record it is given at settlement (RequestTrace.annotate). No prompt or completion text is
// ever put on a span. The trace is passed along explicitly from here (Koa state), see gateway-tracer.ts.
import type { Context as KoaContext, Middleware } from 'koa';
import type { GatewayTracer, RequestTrace } from './gateway-tracer.js';

/** The generation front doors: chat completions, Messages, Responses and Gemini's two methods; and embeddings. */
const GENERATION_PATH =
  /(\/(chat\/completions|messages|responses|embeddings)|:(generateContent|streamGenerateContent))$/;

export function requestSpans(tracer: GatewayTracer): Middleware {
  // Not an async function: an `await next()` inside try/finally measured ~5% more CPU per request on the serving
  // thread than the same work chained with then() (side by side, c=16).
  return (ctx, next) => {
    if (ctx.method !== 'POST' || !GENERATION_PATH.test(ctx.path)) return next();
    // The GenAI operation name: `embeddings` for POST /embeddings, `chat` for every generation door.
    const requestTrace = tracer.startRequest(ctx.headers, ctx.path.endsWith('/embeddings') ? 'embeddings' : 'chat');
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
