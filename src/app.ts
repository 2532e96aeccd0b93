// The Koa app: request id → access log → error envelope → openapi-backend (route, auth, body, validate, handler).
import Koa from 'koa';
import type { LastUsedTracker } from './auth/last-used.js';
import { requestId } from './http/request-id.js';
import { accessLog } from './http/access-log.js';
import { errorEnvelope, type DoorErrorShape } from './http/error-envelope.js';
import { createOpenApiRouter } from './http/openapi-router.js';
import type { ResponsesSockets } from './http/responses-websocket.js';
import { docsRoutes } from './http/docs-routes.js';
import { accountRoutes } from './http/account-routes.js';
import { authenticator } from './http/authenticate.js';
import { requestAuthority } from './auth/authenticate-request.js';
import { buildHandlers } from './handlers/index.js';
import type { HandlerParts } from './handlers/handler-parts.js';
import { FRONT_DOORS } from './formats/front-doors.js';

/** The front doors' own error shapes, for the app's errors and for the HTTP parser's refusals (server.ts). */
export const DOOR_ERROR_SHAPES: readonly DoorErrorShape[] = FRONT_DOORS.flatMap((door) => door.errorShapes);

/** What the app uses: the handlers' parts, and what authentication keeps up to date. */
export interface AppParts extends HandlerParts {
  lastUsed: LastUsedTracker;
}

/** Responses WebSocket mode: the server's sockets, and the count of turns in flight a graceful stop waits for. */
export interface AppSockets {
  sockets: ResponsesSockets;
  beginTurn(): () => void;
}

export async function createApp(parts: AppParts, websockets?: AppSockets): Promise<Koa> {
  const app = new Koa();
  // Errors are logged by errorEnvelope with the request id; Koa's own stderr printing would duplicate them.
  app.silent = true;
  app.use(requestId());
  app.use(accessLog(parts.logger));
  app.use(errorEnvelope(parts.logger, DOOR_ERROR_SHAPES));
  const { db, lastUsed, credentials, now } = parts;
  const authenticate = authenticator(requestAuthority({ db, lastUsed, credentials, now }));
  const router = await createOpenApiRouter({
    handlers: buildHandlers(parts),
    authenticate,
    generationBodyLimitBytes: parts.config.bodyLimitBytes,
    precompileValidators: parts.config.precompileValidators,
  });
  if (websockets) {
    const { config, logger } = parts;
    const socketParts = {
      generation: parts,
      validateBody: router.validateBody,
      logger,
      pingMs: config.websocketPingSeconds * 1000,
      idleMs: config.websocketIdleSeconds * 1000,
      // A chain longer than one request could carry could not have been sent whole either.
      memoryChars: config.bodyLimitBytes,
      beginTurn: websockets.beginTurn,
    };
    app.use(websockets.sockets.middleware(socketParts, authenticate));
  }
  app.use(docsRoutes());
  app.use(accountRoutes());
  app.use(router);
  return app;
}
