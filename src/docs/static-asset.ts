// One in-memory file served with an ETag (so browsers revalidate cheaply) and gzip when the client accepts it
// (the renderer bundle is ~1.8 MB raw, about 0.5 MB gzipped). Compression runs once, on first demand.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Context } from 'koa';

export interface StaticAsset {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
  readonly cacheControl: string;
  readonly securityHeaders: Record<string, string>;
  gzipped(): Buffer;
}

export function createAsset(
  body: Buffer | string,
  contentType: string,
  options: { cacheControl?: string; securityHeaders?: Record<string, string> } = {},
): StaticAsset {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  let compressed: Buffer | undefined;
  return {
    body: bytes,
    contentType,
    etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`,
    // no-cache = "revalidate every time": a redeployed gateway serves its new document at once, and the ETag keeps
    // the unchanged case to a 304.
    cacheControl: options.cacheControl ?? 'no-cache',
    securityHeaders: options.securityHeaders ?? {},
    gzipped: () => (compressed ??= gzipSync(bytes)),
  };
}

export function sendAsset(ctx: Context, asset: StaticAsset): void {
  ctx.set('ETag', asset.etag);
  ctx.set('Cache-Control', asset.cacheControl);
  ctx.set('Vary', 'Accept-Encoding');
  for (const [name, value] of Object.entries(asset.securityHeaders)) ctx.set(name, value);
  if (ifNoneMatch(ctx.get('If-None-Match'), asset.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = asset.contentType;
  const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip' && asset.body.length > 1024;
  ctx.body = gzip ? asset.gzipped() : asset.body;
  if (gzip) ctx.set('Content-Encoding', 'gzip');
  ctx.status = 200;
}

function ifNoneMatch(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
