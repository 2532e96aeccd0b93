// The docs routes on the running gateway: the emitted document and the reference page, without a credential,
// byte for byte, revalidated with ETags, compressed when asked, and nothing else opened up.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { rendererFilePath } from '../../src/docs/asset-files.js';

const generated = (name: string) => readFileSync(new URL(`../../generated/${name}`, import.meta.url));

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' } });
});
afterAll(async () => {
  await gw?.close();
});

describe('GET /api/v1/openapi.json and .yaml', () => {
  it('serves the emitted JSON document without a credential', async () => {
    const res = await gw.fetch('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(Buffer.from(await res.arrayBuffer()).equals(generated('openapi.json'))).toBe(true);
  });

  it('serves the emitted YAML document without a credential', async () => {
    const res = await gw.fetch('/api/v1/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(await res.text()).toBe(generated('openapi.yaml').toString('utf8'));
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const first = await gw.fetch('/api/v1/openapi.json');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const again = await gw.fetch('/api/v1/openapi.json', { headers: { 'if-none-match': `W/${etag}` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await request(`${gw.url}/api/v1/openapi.yaml`, { method: 'HEAD' });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(generated('openapi.yaml').length);
    expect(await res.body.text()).toBe('');
  });

  it('refuses other methods with 405 in the error envelope', async () => {
    const res = await gw.fetch('/api/v1/openapi.json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toMatchObject({
      error: { code: 405, message: 'Method POST is not allowed on /api/v1/openapi.json' },
    });
  });

  it('leaves every API operation behind authentication', async () => {
    expect((await gw.fetch('/api/v1/models')).status).toBe(401);
    expect((await gw.fetch('/api/v1/openapi.jsonx')).status).toBe(404);
  });
});

describe('GET /docs', () => {
  it('serves the reference page that loads only local scripts, styles and the local document', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await gw.fetch(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      const html = await res.text();
      const sources = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
      expect(sources).toEqual(['/docs/api-reference.js', '/docs/init.js']);
      const styles = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
      expect(styles).toEqual(['/docs/api-reference.css']);
      expect(html).not.toMatch(/https?:\/\//);
    }
  });

  it('serves the Swagger UI bundle from node_modules, gzipped when the client accepts it', async () => {
    const bundle = readFileSync(rendererFilePath('bundle'));
    const res = await request(`${gw.url}/docs/api-reference.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('gzip');
    const body = Buffer.from(await res.body.arrayBuffer());
    expect(body.length).toBeLessThan(bundle.length / 2);
    expect(gunzipSync(body).equals(bundle)).toBe(true);

    const plain = await request(`${gw.url}/docs/api-reference.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Buffer.from(await plain.body.arrayBuffer()).equals(bundle)).toBe(true);
  });

  it('serves the Swagger UI stylesheet from node_modules', async () => {
    const res = await gw.fetch('/docs/api-reference.css');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(rendererFilePath('styles')))).toBe(true);
  });

  it('mounts the renderer on the served document with every network-reaching default switched off', async () => {
    const script = await (await gw.fetch('/docs/init.js')).text();
    const config = JSON.parse(/var config = (\{.*\});/.exec(script)![1]);
    expect(config).toMatchObject({
      url: '/api/v1/openapi.json',
      dom_id: '#app',
      validatorUrl: null,
      queryConfigEnabled: false,
    });
    expect(script).toContain("window.location.origin + '/api/v1'");
    expect(script).toContain('SwaggerUIBundle(config)');
  });
});
