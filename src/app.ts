// The Koa app: request id → access log → error envelope → openapi-backend (route, auth, body, validate, handler).
import Koa from 'koa';
import type { Deps } from './deps.js';
import { requestId } from './http/request-id.js';
import { accessLog } from './http/access-log.js';
import { errorEnvelope, type DoorErrorShape } from './http/error-envelope.js';
import { createOpenApiRouter } from './http/openapi-router.js';
import { docsRoutes } from './http/docs-routes.js';
import { accountRoutes } from './http/account-routes.js';
import { authenticator } from './http/authenticate.js';
import { buildHandlers } from './handlers/index.js';
import { MESSAGES_ERROR_SHAPE } from './formats/messages/error-body.js';

/** Front doors with an error shape of their own, for the app's errors and for the HTTP parser's refusals (server.ts). */
export const DOOR_ERROR_SHAPES: readonly DoorErrorShape[] = [MESSAGES_ERROR_SHAPE];

export async function createApp(deps: Deps): Promise<Koa> {
  const app = new Koa();
  // Errors are logged by errorEnvelope with the request id; Koa's own stderr printing would duplicate them.
  app.silent = true;
  app.use(requestId());
  app.use(accessLog(deps.logger));
  app.use(errorEnvelope(deps.logger, DOOR_ERROR_SHAPES));
  app.use(docsRoutes());
  app.use(accountRoutes());
  app.use(await createOpenApiRouter({
    handlers: buildHandlers(deps),
    authenticate: authenticator(deps.db, deps.lastUsed, deps.credentials, deps.now),
    generationBodyLimitBytes: deps.config.bodyLimitBytes,
  }));
  return app;
}
