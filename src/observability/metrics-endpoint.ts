// GET /metrics on the public port, behind a bearer token (MODELGATE_METRICS_TOKEN); without the token the route
// does not exist. A token rather than a second port: one port keeps `--workers` and container setups simple, and
// the figures (volumes and spend per model) are not for the public.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Logger } from '../logger.js';
import type { RenderMetrics } from './cluster-metrics.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function metricsEndpoint(token: string, render: RenderMetrics, logger: Logger): Middleware {
  const expected = digest(token);
  // Every request passes here: not an async function, so the others get next()'s promise itself, not one more
  // promise resolved with it (two microtask turns each).
  return (ctx, next) => {
    if (ctx.path !== '/metrics' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    return serveMetrics(ctx, expected, render, logger);
  };
}

async function serveMetrics(ctx: Context, expected: Buffer, render: RenderMetrics, logger: Logger): Promise<void> {
  const header = ctx.get('authorization');
  const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  // Compared as digests: constant time, whatever the length of what was sent.
  if (!given || !timingSafeEqual(digest(given), expected)) {
    ctx.status = 401;
    ctx.set('www-authenticate', 'Bearer');
    ctx.body = {
      error: {
        code: 401,
        message: 'GET /metrics needs the metrics token (MODELGATE_METRICS_TOKEN) as a Bearer token',
        metadata: {},
      },
    };
    return;
  }
  try {
    ctx.body = await render();
    ctx.type = 'text/plain; version=0.0.4; charset=utf-8';
  } catch (err) {
    logger.warn({ err }, 'could not render metrics');
    ctx.status = 503;
    ctx.body = { error: { code: 503, message: 'Metrics are not available right now', metadata: {} } };
  }
}
