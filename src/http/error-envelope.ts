// Turns every thrown error into the spec's envelope, or into the shape of the front door whose routes it came from
// (Anthropic Messages errors on /messages, so Anthropic SDKs raise their typed errors). Only GatewayError texts reach
// clients; anything else is a 500 with a generic message and the cause in the log, at error level unless it is the
// client's own doing (a connection reset mid-body): the process is fine, and alerts on error lines must not fire.
// A database out of reach (restarting, failing over) is a 503 with Retry-After: the request can be made again shortly.
// Every 429 carries Retry-After, and the key's rate state in the door's headers when the refusal has it
// (rate-limit-exchange.ts).
// An answer given before the request's body was read closes the connection (lingering-close.ts).
import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.js';
import { GatewayError, errorBody } from '../core/gateway-error.js';
import { DatabaseUnavailableError } from '../db/database-unavailable.js';
import { requestBodyUnread } from './read-json-body.js';
import { closeAfterAnswer } from './lingering-close.js';
import { errorHeaders } from './rate-limit-exchange.js';
import type { DoorErrorShape } from '../core/door-error-shape.js';

export type { DoorErrorShape };

/** The front door whose routes `path` belongs to, if any. */
export function doorFor(
  doors: readonly DoorErrorShape[],
  path: string,
  headers?: IncomingHttpHeaders,
): DoorErrorShape | undefined {
  return doors.find(
    (d) =>
      (path === d.pathPrefix || path.startsWith(`${d.pathPrefix}/`)) &&
      (d.when === undefined || (headers !== undefined && d.when(path, headers))),
  );
}

export function errorEnvelope(logger: Logger, doors: readonly DoorErrorShape[] = []): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const error = toGatewayError(err);
      if (err instanceof DatabaseUnavailableError) {
        // The pool and the settlement queue log the outage itself; one line per refused request would flood the log.
        logger.debug({ request_id: ctx.state.requestId, err }, 'database unavailable');
      } else if (clientWentAway(err)) {
        logger.debug(
          { request_id: ctx.state.requestId, code: (err as { code?: unknown })?.code },
          'client closed the connection',
        );
      } else if (error.status >= 500 && !(err instanceof GatewayError)) {
        logger.error({ request_id: ctx.state.requestId, err }, 'unhandled error');
      }
      if (ctx.headerSent || !ctx.writable) {
        // The response already started (SSE): the stream writer reports failures in-band; nothing more to send.
        ctx.res.destroy();
        return;
      }
      ctx.status = error.status;
      ctx.set(errorHeaders(ctx, error));
      if (requestBodyUnread(ctx)) closeAfterAnswer(ctx);
      const door = doorFor(doors, ctx.path, ctx.headers);
      ctx.body = door
        ? door.render(error, ctx.state.requestId)
        : errorBody(error.code, error.message, { ...error.metadata, request_id: ctx.state.requestId });
    }
  };
}

/** Errors of a connection the client reset or closed (mid-body, mid-stream), as Node and its streams report them. */
const CLIENT_GONE_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
]);

/** Judged by the error's code alone: a fault of the gateway's own that happens after the client left still logs as one. */
function clientWentAway(err: unknown): boolean {
  if (err instanceof GatewayError) return false;
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && CLIENT_GONE_CODES.has(code);
}

/** Seconds a client is asked to wait while the database is unavailable: a restart takes a few. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

function toGatewayError(err: unknown): GatewayError {
  if (err instanceof GatewayError) return err;
  if (err instanceof DatabaseUnavailableError) {
    return new GatewayError(
      503,
      `The gateway's database is unavailable (restarting or failing over); retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds`,
      {
        reason: 'database_unavailable',
      },
      { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
    );
  }
  const status = (err as { status?: unknown; expose?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: boolean }).expose) {
    return new GatewayError(status, (err as Error).message);
  }
  return new GatewayError(500, 'Internal server error');
}
