// Every response carries x-request-id: the caller's own when it is a sane token, else a fresh one.
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const id = SAFE_ID.test(incoming) ? incoming : newRequestId();
    ctx.state.requestId = id;
    ctx.set('x-request-id', id);
    await next();
  };
}

/** A fresh id, also for answers given below Koa (see client-error-envelope.ts). */
export function newRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '')}`;
}
