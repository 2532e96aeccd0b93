// A signal that fires when the client goes away before the response finished, so the upstream call stops at once
// (and stops costing money), unless the generation drains its upstream first (src/pipeline/upstream-link.ts).
import type { Context } from 'koa';
import { DisconnectSignal } from '../core/disconnect-signal.js';

export { DisconnectSignal };

export function abortOnDisconnect(ctx: Context): { signal: DisconnectSignal; dispose(): void } {
  const signal = new DisconnectSignal();
  const onClose = () => {
    if (!ctx.res.writableFinished) signal.abort();
  };
  ctx.res.once('close', onClose);
  return { signal, dispose: () => ctx.res.off('close', onClose) };
}
