// Reads a JSON request body with a size limit. The router reads it only after the request's route and credential
// passed (openapi-router.ts), so an unauthenticated client cannot make the gateway take in its body. Parse failures
// are remembered, not thrown: the caller decides when they are answered.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Middleware } from 'koa';
import { GatewayError } from '../core/gateway-error.js';
import { refuseBodyShape } from './body-shape.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const EMPTY = Buffer.alloc(0);

/**
 * Responses to requests sent with `Expect: 100-continue` whose `100 Continue` is still to be given (server.ts puts
 * them here instead of letting Node answer on arrival): given when the body is about to be read, so a request refused
 * before that (no credential, too large) never makes its client send the body.
 */
export const awaitingContinue = new WeakSet<ServerResponse>();

export interface BodyState {
  body?: unknown;
  /** The body's bytes as sent, when it parsed as JSON: the native lane sends them on (native-wire.ts takes them). */
  rawBody?: Buffer;
  bodyError?: GatewayError;
  /** The whole body was taken off the connection (set by readRequestBody). */
  bodyRead?: boolean;
}

/** The reader as a middleware, for every request with a body method (the app itself reads per operation). */
export function readJsonBody(limitBytes: number): Middleware {
  return async (ctx, next) => {
    await readRequestBody(ctx, limitBytes);
    await next();
  };
}

/** Reads and parses the body of a POST, PUT or PATCH into ctx.state (BodyState); 413 over `limitBytes`. */
export async function readRequestBody(ctx: Context, limitBytes: number): Promise<void> {
  if (!BODY_METHODS.has(ctx.method)) return;
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limitBytes) throw tooLarge(limitBytes);
  // The client waits for this before it sends its body.
  if (awaitingContinue.delete(ctx.res)) ctx.res.writeContinue();
  // The raw bytes stay inside readBody (and BodyState, until a generation takes them): a local of this frame would
  // live, suspended, until the response ends.
  await readBody(ctx, limitBytes);
}

/**
 * True when the request announced a body that was not (entirely) read: answering it then, the connection must close,
 * or Node would take in the rest of the body, however long, to keep the connection for a next request.
 */
export function requestBodyUnread(ctx: Context): boolean {
  if ((ctx.state as BodyState).bodyRead === true) return false;
  const length = ctx.get('content-length');
  return (length !== '' && length !== '0') || ctx.get('transfer-encoding') !== '';
}

async function readBody(ctx: Context, limitBytes: number): Promise<void> {
  const raw = await readLimited(ctx.req, limitBytes);
  const state = ctx.state as BodyState;
  state.bodyRead = true;
  if (raw.length === 0) {
    state.body = undefined;
  } else if (!isJson(ctx)) {
    state.bodyError = new GatewayError(400, 'Content-Type must be application/json', {
      content_type: ctx.get('content-type') || null,
    });
  } else {
    const text = raw.toString('utf8');
    try {
      state.body = JSON.parse(text);
    } catch (err) {
      state.bodyError = new GatewayError(400, `Malformed JSON body: ${(err as Error).message}`);
      return;
    }
    const refusal = refuseBodyShape(text, state.body);
    if (refusal) {
      state.body = undefined;
      state.bodyError = refusal;
      return;
    }
    state.rawBody = raw;
  }
}

/** The exact common header is answered without type-is parsing it (~1% of the gateway's CPU); any other goes to type-is. */
function isJson(ctx: Context): boolean {
  return ctx.get('content-type') === 'application/json' || Boolean(ctx.is('application/json', 'application/*+json'));
}

/** As `for await` reports a stream that closed before its end: the error it was destroyed with, else a premature close. */
function clientGone(stream: IncomingMessage): Error {
  return stream.errored ?? Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

function tooLarge(limitBytes: number): GatewayError {
  return new GatewayError(413, `Request body exceeds the limit of ${limitBytes} bytes`, { limit_bytes: limitBytes });
}

/**
 * Collects the body with plain stream listeners: `for await` builds an async iterator per request and hops through
 * microtasks per chunk (~2% of the gateway's CPU at concurrency 1). Over the limit it answers 413 at once and
 * stops buffering; the rest of the body is dropped while it flows in, and the gateway's answer closes the connection
 * (error-envelope.ts: the body was not read whole).
 * A client that goes away mid-body fails the read (the stream's own error, or a reset), never leaves it pending.
 */
function readLimited(stream: IncomingMessage, limitBytes: number): Promise<Buffer> {
  if (stream.readableEnded) return Promise.resolve(EMPTY);
  // Gone already (its 'close' came and went): no listener would ever fire.
  if (stream.destroyed) return Promise.reject(clientGone(stream));
  return new Promise((resolve, reject) => {
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let size = 0;
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > limitBytes) {
        finish();
        reject(tooLarge(limitBytes));
      } else if (first === undefined) {
        first = buf;
      } else {
        chunks ??= [first];
        chunks.push(buf);
      }
    };
    const onEnd = () => {
      // One chunk, the usual case for a small body, is the body itself.
      const body = chunks ? Buffer.concat(chunks, size) : (first ?? EMPTY);
      finish();
      resolve(body);
    };
    const onError = (err: Error) => {
      finish();
      reject(err);
    };
    const onClose = () => {
      // 'close' before 'end' without an 'error': the body will never be complete.
      finish();
      reject(clientGone(stream));
    };
    function finish(): void {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
      first = undefined;
      chunks = undefined;
    }
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}
