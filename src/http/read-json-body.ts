// Reads a JSON request body with a size limit. Parse failures are remembered, not thrown, so that a request
// with bad credentials is answered 401 before its body is judged (see openapi-router.ts).
import type { Context, Middleware } from 'koa';
import { GatewayError } from './gateway-error.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export interface BodyState {
  body?: unknown;
  bodyError?: GatewayError;
}

export function readJsonBody(limitBytes: number): Middleware {
  return async (ctx, next) => {
    if (!BODY_METHODS.has(ctx.method)) return next();
    const declared = Number(ctx.get('content-length') || 0);
    if (declared > limitBytes) throw tooLarge(limitBytes);
    // The raw bytes stay inside readBody: a local of this frame would live, suspended, until the response ends.
    await readBody(ctx, limitBytes);
    await next();
  };
}

async function readBody(ctx: Context, limitBytes: number): Promise<void> {
  const raw = await readLimited(ctx.req, limitBytes);
  const state = ctx.state as BodyState;
  if (raw.length === 0) {
    state.body = undefined;
  } else if (!ctx.is('application/json', 'application/*+json')) {
    state.bodyError = new GatewayError(400, 'Content-Type must be application/json', {
      content_type: ctx.get('content-type') || null,
    });
  } else {
    try {
      state.body = JSON.parse(raw.toString('utf8'));
    } catch (err) {
      state.bodyError = new GatewayError(400, `Malformed JSON body: ${(err as Error).message}`);
    }
  }
}

function tooLarge(limitBytes: number): GatewayError {
  return new GatewayError(413, `Request body exceeds the limit of ${limitBytes} bytes`, { limit_bytes: limitBytes });
}

async function readLimited(stream: NodeJS.ReadableStream, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > limitBytes) throw tooLarge(limitBytes);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}
