// Codex's built-in OpenAI provider opens `GET {base}/responses` as a WebSocket first (OpenAI's Responses WebSocket
// mode). The gateway speaks the Responses API over HTTP only: 426 Upgrade Required makes Codex fall back to HTTP at
// once, where a 404 or 405 costs it seven handshake attempts (~6 s) per connection (docs/clients.md). Any other GET
// of the route stays the router's 405. The connection closes after the answer: it was opened to be upgraded, and
// Node keeps an upgrade-requesting connection open otherwise (the client would wait on it).
import type { Middleware } from 'koa';
import { GatewayError } from '../core/gateway-error.js';
import { API_ROOT } from './openapi-router.js';

const RESPONSES = `${API_ROOT}/responses`;

export function refuseWebSocketUpgrade(): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === RESPONSES && /\bwebsocket\b/i.test(ctx.get('upgrade'))) {
      throw new GatewayError(
        426,
        'The Responses API is served over HTTP only: send POST /responses (WebSocket mode is not available)',
        {
          reason: 'websocket_not_supported',
        },
        { Connection: 'close' },
      );
    }
    await next();
  };
}
