// Operations the kit has no specific code for (new front doors, admin, health, ...) are exercised from their
// schemas alone — valid, invalid and unauthenticated inputs, status/content-type/envelope checks, generic event
// streams — or, when the kit cannot draw inputs from a schema, listed as untested. Never a crash.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseDocument } from '../../src/conformance/openapi-document.js';
import { runConformance } from '../../src/conformance/runner.js';
import { formatReport } from '../../src/conformance/report.js';

const error = { $ref: '#/components/schemas/Error' };
const answer = (status: string, content: Record<string, object>) => ({ [status]: { description: status, content } });
const json = (schema: object) => ({ 'application/json': { schema } });
const errors = { ...answer('400', json(error)), ...answer('401', json(error)), ...answer('404', json(error)) };
const document = parseDocument({
  openapi: '3.0.0',
  info: { title: 'Future API', version: '2' },
  servers: [{ url: '/api/v1' }],
  security: [{ BearerAuth: [] }],
  components: {
    securitySchemes: { BearerAuth: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Error: {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: { code: {}, message: { type: 'string' } },
          },
        },
      },
    },
  },
  paths: {
    '/health': {
      get: {
        operationId: 'getHealth',
        security: [],
        responses: answer(
          '200',
          json({ type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } }),
        ),
      },
    },
    '/messages': {
      post: {
        operationId: 'createMessage',
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            required: ['model', 'max_tokens'],
            properties: { model: { type: 'string' }, max_tokens: { type: 'integer', minimum: 1, maximum: 100 } },
          }),
        },
        responses: { ...answer('200', { 'text/event-stream': { schema: { type: 'string' } } }), ...errors },
      },
    },
    // Schemas no value satisfies, in three ways the walker meets them: bounds fast-check refuses, a pattern that never
    // fits the length, and allOf branches that contradict each other. Each must end as "untested", not as a hang.
    ...Object.fromEntries(
      [
        ['Impossible', { type: 'string', minLength: 5, maxLength: 2 }],
        ['Unmatchable', { type: 'string', pattern: '^a$', minLength: 3 }],
        [
          'Contradictory',
          {
            allOf: [
              { type: 'integer', maximum: 1 },
              { type: 'integer', minimum: 5 },
            ],
          },
        ],
      ].map(([name, a]) => [
        `/${String(name).toLowerCase()}`,
        {
          post: {
            operationId: `create${name}`,
            requestBody: { required: true, content: json({ type: 'object', required: ['a'], properties: { a } }) },
            responses: { ...answer('201', json({ type: 'object' })), ...errors },
          },
        },
      ]),
    ),
  },
});

const KEY = 'future-key-0123456789';
let server: http.Server;
let url = '';
beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const c of req) raw += c;
    const send = (status: number, body: string, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type, 'x-request-id': 'r' });
      res.end(body);
    };
    const fail = (status: number) => send(status, JSON.stringify({ error: { code: status, message: 'no' } }));
    const path = (req.url ?? '').split('?')[0];
    if (path === '/api/v1/health')
      return req.method === 'GET'
        ? send(200, '{"status":"ok"}')
        : res.writeHead(405, { allow: 'GET', 'x-request-id': 'r' }).end();
    if (!['/api/v1/messages', '/api/v1/impossible', '/api/v1/unmatchable', '/api/v1/contradictory'].includes(path))
      return fail(404);
    if (req.method !== 'POST') return res.writeHead(405, { allow: 'POST', 'x-request-id': 'r' }).end();
    if (req.headers.authorization !== `Bearer ${KEY}`) return fail(401);
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return fail(400);
    }
    if (
      !(req.headers['content-type'] ?? '').startsWith('application/json') ||
      typeof body?.model !== 'string' ||
      !Number.isInteger(body.max_tokens) ||
      body.max_tokens < 1 ||
      body.max_tokens > 100
    )
      return fail(400);
    send(
      200,
      'event: message_start\ndata: {"type":"message_start"}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
      'text/event-stream',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server?.closeAllConnections();
  server?.close();
});

it('exercises unknown extensions from their schemas and lists the ones it cannot draw inputs for as untested', async () => {
  const report = await runConformance({
    baseUrl: url,
    apiKey: KEY,
    document,
    runs: 10,
    seed: 3,
    timeLimitMs: 60_000,
    model: 'm',
  });
  const text = formatReport(report);
  expect(report.ok, text).toBe(true);
  const outcomes = (id: string) =>
    new Set(report.results.filter((r) => r.target.includes(`(${id})`)).map((r) => `${r.check}:${r.outcome}`));
  for (const id of ['getHealth', 'createMessage']) {
    expect(outcomes(id), text).toContain('route_implemented:passed');
    expect(outcomes(id), text).toContain('response_schema_conformance:passed');
  }
  expect(outcomes('createMessage')).toContain('negative_data_rejection:passed');
  expect(outcomes('createMessage')).toContain('ignored_auth:passed');
  expect(outcomes('createMessage')).toContain('stream_framing:passed');
  for (const name of ['Impossible', 'Unmatchable', 'Contradictory']) {
    const target = `POST /${name.toLowerCase()} (create${name}) [valid inputs]`;
    const results = report.results.filter((r) => r.target === target);
    expect(results.length, target).toBeGreaterThan(0);
    expect(
      results.every((r) => r.outcome === 'skipped' && r.note?.startsWith('untested: the kit could not exercise it')),
      text,
    ).toBe(true);
    expect(text).toContain(`skipped: ${target}: untested`);
    expect(
      report.results.some(
        (r) => r.target.includes(`(create${name})`) && r.check === 'route_implemented' && r.outcome === 'passed',
      ),
    ).toBe(true);
  }
  expect(text).toContain('no value of a body valid against');
  expect(report.results.filter((r) => r.check === 'unsupported_method').every((r) => r.outcome === 'passed')).toBe(
    true,
  );
}, 60_000);
