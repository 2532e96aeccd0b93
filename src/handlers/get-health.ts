// Liveness: answering is the whole check. No database call: a slow database must not get a live process restarted.
import type { Handler } from '../http/openapi-router.js';
import { quietWhenOk } from '../http/access-log.js';

export function getHealth(): Handler {
  const body = JSON.stringify({ status: 'ok' });
  return (_api, ctx) => {
    quietWhenOk(ctx);
    ctx.type = 'application/json';
    ctx.body = body;
  };
}
