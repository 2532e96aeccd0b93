// An AbortSignal that fires when the client goes away before the response finished, so the upstream call stops
// at once (and stops costing money).
import type { Context } from 'koa';

export function abortOnDisconnect(ctx: Context): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onClose = () => {
    if (!ctx.res.writableFinished) controller.abort();
  };
  ctx.res.once('close', onClose);
  return { signal: controller.signal, dispose: () => ctx.res.off('close', onClose) };
}
