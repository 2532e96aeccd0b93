// Readiness: 200 while the gateway can serve, else 503 with the reason (see health/check-readiness.ts).
import type { Handler } from '../http/openapi-router.js';
import { quietWhenOk } from '../http/access-log.js';
import { GatewayError } from '../core/gateway-error.js';
import type { HandlerParts } from './handler-parts.js';

export function getReadiness(parts: Pick<HandlerParts, 'readiness' | 'logger'>): Handler {
  const body = JSON.stringify({ status: 'ready' });
  return async (_api, ctx) => {
    quietWhenOk(ctx);
    const notReady = await parts.readiness();
    if (notReady) {
      if (notReady.cause !== undefined)
        parts.logger.warn({ request_id: ctx.state.requestId, err: notReady.cause }, 'readiness: database check failed');
      const { reason, pending } = notReady;
      // An instance that is stopping closes the probe's connection too: the next probe finds out it is gone.
      const headers: Record<string, string> = reason === 'shutting_down' ? { Connection: 'close' } : {};
      throw new GatewayError(503, notReady.message, pending ? { reason, pending } : { reason }, headers);
    }
    ctx.type = 'application/json';
    ctx.body = body;
  };
}
