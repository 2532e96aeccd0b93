// The memoized openapi-backend must answer every request exactly as the library alone does: same operation, same
// 404/405, same validation errors, same parsed request handed to the handler (also after Ajv coerced its copy).
import { describe, expect, it } from 'vitest';
import { OpenAPIBackend, type Context, type Document, type Request } from 'openapi-backend';
import { headerPicker, memoizeOpenApiBackend } from '../../src/http/openapi-backend-memo.js';

const document = {
  openapi: '3.0.3',
  info: { title: 'memo test', version: '1' },
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        parameters: [
          { name: 'tag', in: 'query', required: false, schema: { type: 'array', items: { type: 'integer' } } },
        ],
        responses: { 200: { description: 'ok' } },
      },
      post: {
        operationId: 'createItem',
        parameters: [{ name: 'X-Trace', in: 'header', required: false, schema: { type: 'string', maxLength: 4 } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
            },
          },
        },
        responses: { 201: { description: 'created' } },
      },
    },
    '/items/{id}': {
      get: {
        operationId: 'getItem',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 200: { description: 'ok' } },
      },
    },
  },
} as unknown as Document;

type Outcome = { handler: string; errors?: unknown; request?: unknown };

async function backend(memoized: boolean) {
  const outcome =
    (handler: string) =>
    (api: Context): Outcome => ({
      handler,
      errors: api.validation?.errors ?? undefined,
      request: api.request,
    });
  const api = new OpenAPIBackend({ definition: structuredClone(document), strict: true, validate: true });
  api.register({
    listItems: outcome('listItems'),
    createItem: outcome('createItem'),
    getItem: outcome('getItem'),
    notFound: outcome('notFound'),
    methodNotAllowed: outcome('methodNotAllowed'),
    validationFail: outcome('validationFail'),
  });
  await api.init();
  if (memoized) memoizeOpenApiBackend(api);
  return (req: Request) => api.handleRequest(req) as Promise<Outcome>;
}

const requests: Request[] = [
  { method: 'POST', path: '/items', headers: { 'content-type': 'application/json' }, body: { name: 'a' } },
  {
    method: 'POST',
    path: '/items',
    headers: { 'content-type': 'application/json', 'x-trace': 'toolong' },
    body: { name: 'a' },
  },
  { method: 'POST', path: '/items', headers: { 'content-type': 'application/json' }, body: { name: 1 } },
  { method: 'POST', path: '/items', headers: { 'content-type': 'application/json' } },
  { method: 'GET', path: '/items', headers: {}, query: 'tag=1&tag=2' },
  { method: 'GET', path: '/items', headers: {}, query: 'tag=x' },
  { method: 'GET', path: '/items/5', headers: {} },
  { method: 'GET', path: '/items/6', headers: { cookie: 'a=1' } },
  { method: 'GET', path: '/items/5', headers: {}, query: 'extra=1' },
  { method: 'GET', path: '/items/five', headers: {} },
  { method: 'GET', path: '/items/5/', headers: {} },
  { method: 'DELETE', path: '/items', headers: {} },
  { method: 'GET', path: '/nothing', headers: {} },
];

describe('memoizeOpenApiBackend', () => {
  it('routes, validates and parses every request as the library alone does, also when asked again', async () => {
    const plain = await backend(false);
    const memo = await backend(true);
    for (let round = 0; round < 3; round++) {
      for (const req of requests) {
        expect(await memo(structuredClone(req)), `${req.method} ${req.path}`).toEqual(
          await plain(structuredClone(req)),
        );
      }
    }
  });

  it('keeps the handler’s parsed request apart from the copy validation coerces', async () => {
    const memo = await backend(true);
    const result = await memo({ method: 'GET', path: '/items/5', headers: {} });
    expect(result).toMatchObject({ handler: 'getItem', request: { params: { id: '5' } } });
  });
});

describe('headerPicker', () => {
  it('passes openapi-backend only content-type and the header parameters the document declares', async () => {
    const api = new OpenAPIBackend({ definition: structuredClone(document), strict: true });
    await api.init();
    const pick = headerPicker(api);
    expect(
      pick({
        'content-type': 'application/json',
        'x-trace': 'ab',
        authorization: 'Bearer secret',
        'user-agent': 'x',
        cookie: 'a=1',
      }),
    ).toEqual({ 'content-type': 'application/json', 'x-trace': 'ab' });
  });
});
