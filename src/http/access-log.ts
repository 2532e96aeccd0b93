// One structured line per request. Headers and bodies are never logged: they may hold credentials or prompts.
import type { Middleware } from 'koa';
import type { Logger } from '../logger.js';

export function accessLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    ctx.res.once('close', () => {
      logger.info(
        {
          request_id: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 100) / 100,
          aborted: !ctx.res.writableFinished,
        },
        'request',
      );
    });
    await next();
  };
}
