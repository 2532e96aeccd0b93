// How the gateway serves /account: the HTML shell under a strict CSP naming fingerprinted asset URLs, the assets
// cached for a year and revalidated by ETag, nothing but GET/HEAD accepted, no credential needed for the page.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

describe('/account routes', () => {
  let gw: TestGateway;
  let html: string;
  let page: Response;

  beforeAll(async () => {
    gw = await startTestGateway();
    page = await gw.fetch('/account');
    html = await page.text();
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  it('serves the page without a credential, under a CSP without inline code', () => {
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    // No inline script: every <script> has a src.
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
  });

  it('names assets by content hash and lets browsers keep them for a year', async () => {
    const urls = [...html.matchAll(/(?:src|href)="(\/account\/assets\/account\.([0-9a-f]{12})\.(js|css))"/g)];
    expect(urls.map((m) => m[3]).sort()).toEqual(['css', 'js']);
    for (const [, url, hash, ext] of urls) {
      const res = await gw.fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(ext === 'js' ? 'text/javascript' : 'text/css');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const body = await res.text();
      expect(createHash('sha256').update(body).digest('hex').slice(0, 12)).toBe(hash);
      const again = await gw.fetch(url, { headers: { 'if-none-match': res.headers.get('etag') ?? '' } });
      expect(again.status).toBe(304);
    }
  });

  it('answers 405 to other methods and 404 (through the API router) to unknown assets', async () => {
    const post = await gw.fetch('/account', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await post.json()).error.code).toBe(405);
    expect((await gw.fetch('/account/assets/account.000000000000.js')).status).toBe(404);
  });
});
