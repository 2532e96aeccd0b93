// What a newcomer meets first (issue 36 §3): the gateway's root leads to the account page, the README's first chat
// request on a gateway without provider keys answers 503 naming the variable to set, and /models speaks snake_case
// (with the seed contract's two camelCase flags kept as deprecated aliases).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

/** The JSON body of the README's first `curl ... -d '{...}'` that names a model. */
function readmeFirstChatBody(): { model: string } {
  const match = /-d '(\{"model"[^']*\})'/.exec(readFileSync('README.md', 'utf8'));
  if (!match) throw new Error('README.md has no curl chat example with -d \'{"model": ...}\'');
  return JSON.parse(match[1]);
}

describe('first steps on a fresh gateway (default catalog, no provider keys)', () => {
  let gw: TestGateway;
  let key: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    const user = await gw.createUser();
    await gw.grant(user.userId, 5);
    key = user.key;
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  it('GET and HEAD / redirect to the account page; other methods are 405 in the error envelope', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await gw.fetch('/', { method, redirect: 'manual' });
      expect(res.status, method).toBe(302);
      expect(res.headers.get('location')).toBe('/account');
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
    const followed = await gw.fetch('/');
    expect(followed.status).toBe(200);
    expect(await followed.text()).toContain('href="/docs"');
    const post = await gw.fetch('/', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(((await post.json()) as any).error.code).toBe(405);
  });

  it("the README's first chat request answers 503 naming the variable the operator sets", async () => {
    const body = readmeFirstChatBody();
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(503);
    const { error } = (await res.json()) as any;
    expect(error.metadata.reason).toBe('provider_not_configured');
    const provider = body.model.split('/')[0];
    expect(error.message).toContain(`${provider.toUpperCase()}_API_KEY`);
    // Each endpoint the model has (its fallbacks too) names its own variable.
    for (const endpoint of error.metadata.endpoints ?? []) {
      expect(error.message).toContain(`${endpoint.provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`);
    }
  });

  it('a 403 that needs another credential says how to get it as a command that runs from the checkout', async () => {
    const res = await gw.fetch('/api/v1/api-keys', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: '{"name":"ci"}',
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.message).toContain('`npx modelgate tokens create`');
  });

  it('/models: every field snake_case, no camelCase repeat of a flag (supportsReasoning, supportsImages)', async () => {
    const res = await gw.fetch('/api/v1/models', { key });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Array<Record<string, unknown>> };
    expect(data.length).toBeGreaterThan(10);
    const offending = new Set<string>();
    const walk = (value: unknown) => {
      if (Array.isArray(value)) for (const v of value) walk(v);
      else if (value && typeof value === 'object') {
        for (const [name, inner] of Object.entries(value)) {
          if (!/^[a-z0-9]+(_[a-z0-9]+)*$/.test(name)) offending.add(name);
          walk(inner);
        }
      }
    };
    for (const model of data) {
      walk(model);
      for (const flag of ['supports_reasoning', 'supports_images', 'supports_tools'])
        expect(typeof model[flag], `${model.id} ${flag}`).toBe('boolean');
    }
    expect([...offending]).toEqual([]);
  });
});
