// One structured line per request. Headers and bodies are never logged: they may hold credentials or prompts.
import type { Context, Middleware } from 'koa';
import type { Logger } from '../logger.js';

const CLIENT_CLOSED_REQUEST = 499;

export function accessLog(logger: Logger): Middleware {
  // The line holds only the fields below, built here, none of which the logger's redaction paths name: a child
  // without redaction writes the same bytes and skips pino's redaction pass.
  const lines = logger.child({}, { redact: [] });
  return async (ctx, next) => {
    const started = performance.now();
    ctx.res.once('close', () => {
      if (ctx.state.quietWhenOk === true && ctx.status < 400 && ctx.res.writableFinished) return;
      lines.info(
        {
          request_id: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          // A client that left before the response began got none: Koa's default 404 would be a lie. 499 is the
          // status proxies (nginx) log for "client closed request".
          status: ctx.res.headersSent ? ctx.status : CLIENT_CLOSED_REQUEST,
          ms: Math.round((performance.now() - started) * 100) / 100,
          aborted: !ctx.res.writableFinished,
        },
        'request',
      );
    });
    await next();
  };
}

/** Health probes arrive every few seconds from every load balancer: only the ones that fail are worth a line. */
export function quietWhenOk(ctx: Context): void {
  ctx.state.quietWhenOk = true;
}
