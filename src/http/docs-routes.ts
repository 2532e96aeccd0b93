// Public documentation routes, mounted before openapi-backend and needing no credential:
//   GET /api/v1/openapi.json, GET /api/v1/openapi.yaml   the emitted OpenAPI document, byte for byte
//   GET /docs                                            the API reference page (Swagger UI, served from here)
//   GET /docs/api-reference.js, /docs/init.js            the page's scripts
//   GET /docs/api-reference.css                          its stylesheet
// Any other path passes through to the API router.
import type { Context, Middleware } from 'koa';
import { readGeneratedFile, readRendererFile } from '../docs/asset-files.js';
import { renderDocsInit, renderDocsPage } from '../docs/docs-page.js';
import { createAsset, sendAsset, type StaticAsset } from '../docs/static-asset.js';
import { API_ROOT } from './openapi-router.js';
import { GatewayError } from '../core/gateway-error.js';

export const DOCS_PATH = '/docs';
export const OPENAPI_JSON_PATH = `${API_ROOT}/openapi.json`;
export const OPENAPI_YAML_PATH = `${API_ROOT}/openapi.yaml`;
const BUNDLE_PATH = `${DOCS_PATH}/api-reference.js`;
const STYLES_PATH = `${DOCS_PATH}/api-reference.css`;
const INIT_PATH = `${DOCS_PATH}/init.js`;

// The page may load only what this gateway serves: scripts from itself (no inline script), the document and
// "try it out" requests to itself. Swagger UI sets inline styles and draws SVG images from data: URLs, hence the
// style/img allowances.
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ');

// Built once per process: the files do not change while it runs, and tests start many apps.
let cached: Map<string, StaticAsset> | undefined;

function loadAssets(): Map<string, StaticAsset> {
  cached ??= new Map<string, StaticAsset>([
    [OPENAPI_JSON_PATH, createAsset(readGeneratedFile('openapi.json'), 'application/json; charset=utf-8')],
    [OPENAPI_YAML_PATH, createAsset(readGeneratedFile('openapi.yaml'), 'application/yaml; charset=utf-8')],
    [
      DOCS_PATH,
      createAsset(
        renderDocsPage({
          specUrl: OPENAPI_JSON_PATH,
          bundleUrl: BUNDLE_PATH,
          stylesUrl: STYLES_PATH,
          initUrl: INIT_PATH,
          title: 'Modelgate API reference',
        }),
        'text/html; charset=utf-8',
        { securityHeaders: { 'Content-Security-Policy': PAGE_CSP, 'X-Content-Type-Options': 'nosniff' } },
      ),
    ],
    [BUNDLE_PATH, createAsset(readRendererFile('bundle'), 'text/javascript; charset=utf-8')],
    [STYLES_PATH, createAsset(readRendererFile('styles'), 'text/css; charset=utf-8')],
    [
      INIT_PATH,
      createAsset(
        renderDocsInit({ specUrl: OPENAPI_JSON_PATH, sameOriginServer: true }),
        'text/javascript; charset=utf-8',
      ),
    ],
  ]);
  return cached;
}

export function docsRoutes(): Middleware {
  const assets = loadAssets();
  return async (ctx: Context, next) => {
    const asset = assets.get(ctx.path === `${DOCS_PATH}/` ? DOCS_PATH : ctx.path);
    if (!asset) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new GatewayError(405, `Method ${ctx.method} is not allowed on ${ctx.path}`, {}, { Allow: 'GET, HEAD' });
    }
    sendAsset(ctx, asset);
  };
}
