// MODELGATE_PRECOMPILE_VALIDATORS: the request validators are compiled at start by default, or each on its operation's
// first request when it is false. Either way a request is checked against the same schema: a bad body is a 400 before
// the handler runs, a good one reaches it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createOpenApiRouter } from '../../src/http/openapi-router.js';

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** A Koa app holding only the router, with one handler that answers 200 (the handler was reached). */
async function routerApp(precompileValidators: boolean): Promise<{ url: string; handled: string[] }> {
  const handled: string[] = [];
  const router = await createOpenApiRouter({
    handlers: {
      createEmbedding: (_api, ctx) => {
        handled.push('createEmbedding');
        ctx.body = { reached: true };
      },
    },
    authenticate: async () => {},
    generationBodyLimitBytes: 1024 * 1024,
    precompileValidators,
  });
  const app = new Koa();
  app.silent = true;
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      ctx.status = (err as { status?: number }).status ?? 500;
      ctx.body = { error: (err as Error).message };
    }
  });
  app.use(router);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, handled };
}

function postEmbeddings(url: string, body: unknown): Promise<Response> {
  return fetch(`${url}/api/v1/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify(body),
  });
}

describe('request validators compiled at start or on first use', () => {
  it('compiles them at start unless MODELGATE_PRECOMPILE_VALIDATORS is false', () => {
    expect(loadConfig({}).precompileValidators).toBe(true);
    expect(loadConfig({ MODELGATE_PRECOMPILE_VALIDATORS: 'true' }).precompileValidators).toBe(true);
    expect(loadConfig({ MODELGATE_PRECOMPILE_VALIDATORS: 'false' }).precompileValidators).toBe(false);
    expect(() => loadConfig({ MODELGATE_PRECOMPILE_VALIDATORS: 'later' })).toThrow(ConfigError);
    expect(() => loadConfig({ MODELGATE_PRECOMPILE_VALIDATORS: 'later' })).toThrow('MODELGATE_PRECOMPILE_VALIDATORS');
  });

  it.each([true, false])(
    'with precompileValidators=%s, refuses a bad body and passes a good one',
    async (precompile) => {
      const { url, handled } = await routerApp(precompile);
      // The first request of the operation is the bad one: a validator compiled on it must already refuse it.
      const bad = await postEmbeddings(url, { model: 'openai/text-embedding-test', input: 42 });
      expect(bad.status).toBe(400);
      expect(handled).toEqual([]);
      const good = await postEmbeddings(url, { model: 'openai/text-embedding-test', input: 'hello' });
      expect(good.status).toBe(200);
      expect(await good.json()).toEqual({ reached: true });
      expect(handled).toEqual(['createEmbedding']);
    },
  );
});
