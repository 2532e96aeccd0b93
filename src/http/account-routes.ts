// The account page, mounted like /docs before openapi-backend and needing no credential (the page asks for one and
// sends it to the API itself):
//   GET /account                               the HTML shell (revalidated on every load: it names the asset URLs)
//   GET /account/assets/account.<hash>.js|css  the script bundle and stylesheet, fingerprinted, cached for a year
//   GET /                                      302 to /account: whoever opens the gateway in a browser is a user;
//                                              the page links to the API reference (/docs) for developers
import type { Context, Middleware } from 'koa';
import { buildAccountAssets } from '../account/account-assets.js';
import { renderAccountPage } from '../account/account-page.js';
import { createAsset, sendAsset, type StaticAsset } from '../docs/static-asset.js';
import { GatewayError } from '../core/gateway-error.js';

export const ACCOUNT_PATH = '/account';

// Stricter than /docs (which hosts a third-party renderer): no inline script or style at all, only this origin,
// no framing, no form posts anywhere. The page's API calls go to the same origin.
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';

let cached: Map<string, StaticAsset> | undefined;

function loadAssets(): Map<string, StaticAsset> {
  if (cached) return cached;
  const { script, style } = buildAccountAssets(ACCOUNT_PATH);
  const security = { 'X-Content-Type-Options': 'nosniff' };
  cached = new Map<string, StaticAsset>([
    [
      ACCOUNT_PATH,
      createAsset(renderAccountPage({ scriptUrl: script.path, styleUrl: style.path }), 'text/html; charset=utf-8', {
        securityHeaders: { ...security, 'Content-Security-Policy': PAGE_CSP, 'Referrer-Policy': 'no-referrer' },
      }),
    ],
    [
      script.path,
      createAsset(script.body, 'text/javascript; charset=utf-8', {
        cacheControl: IMMUTABLE,
        securityHeaders: security,
      }),
    ],
    [
      style.path,
      createAsset(style.body, 'text/css; charset=utf-8', { cacheControl: IMMUTABLE, securityHeaders: security }),
    ],
  ]);
  return cached;
}

export function accountRoutes(): Middleware {
  const assets = loadAssets();
  return async (ctx: Context, next) => {
    const root = ctx.path === '/';
    const asset = assets.get(ctx.path === `${ACCOUNT_PATH}/` ? ACCOUNT_PATH : ctx.path);
    if (!asset && !root) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new GatewayError(405, `Method ${ctx.method} is not allowed on ${ctx.path}`, {}, { Allow: 'GET, HEAD' });
    }
    if (root) ctx.redirect(ACCOUNT_PATH);
    else sendAsset(ctx, asset!);
  };
}
