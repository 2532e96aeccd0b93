// The Koa app: request id → access log → error envelope → openapi-backend (route, auth, body, validate, handler).
import Koa from 'koa';
import type { Deps } from './deps.js';
import { requestId } from './http/request-id.js';
import { accessLog } from './http/access-log.js';
import { errorEnvelope } from './http/error-envelope.js';
import { createOpenApiRouter } from './http/openapi-router.js';
import { docsRoutes } from './http/docs-routes.js';
import { accountRoutes } from './http/account-routes.js';
import { authenticator } from './http/authenticate.js';
import { buildHandlers } from './handlers/index.js';
import { MESSAGES_ERROR_SHAPE } from './formats/messages/error-body.js';

export async function createApp(deps: Deps): Promise<Koa> {
  const app = new Koa();
  // Errors are logged by errorEnvelope with the request id; Koa's own stderr printing would duplicate them.
  app.silent = true;
  app.use(requestId());
  app.use(accessLog(deps.logger));
  app.use(errorEnvelope(deps.logger, [MESSAGES_ERROR_SHAPE]));
  app.use(docsRoutes());
  app.use(accountRoutes());
  app.use(await createOpenApiRouter({
    handlers: buildHandlers(deps),
    authenticate: authenticator(deps.db, deps.lastUsed, deps.credentials, deps.now),
    generationBodyLimitBytes: deps.config.bodyLimitBytes,
  }));
  return app;
}
