// Each response check on hand-made exchanges: it fails on exactly the fault it is named for and passes a
// conforming answer — so a green conformance run means something.
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/conformance/openapi-document.js';
import { createSchemaValidator } from '../../src/conformance/schema-validator.js';
import { checkExchange, type CheckContext } from '../../src/conformance/response-checks.js';
import { allowProblem } from '../../src/conformance/unsupported-method.js';
import { junitReport } from '../../src/conformance/junit-report.js';
import type { Exchange } from '../../src/conformance/http-exchange.js';
import type { RequestSpec } from '../../src/conformance/request-spec.js';
import { formatReport } from '../../src/conformance/report.js';
import { ConformanceFailure, toCounterexample } from '../../src/conformance/counterexample.js';

const doc = await loadDocument();
const ctx: CheckContext = { doc, validator: createSchemaValidator(doc) };
const op = (id: string) => doc.operations.find((o) => o.operationId === id)!;

const request = (extra: Partial<RequestSpec> = {}): RequestSpec => ({
  operationId: 'listApiKeys',
  method: 'GET',
  path: '/api-keys',
  query: [],
  headers: {},
  description: 'valid request',
  ...extra,
});
const json = 'application/json; charset=utf-8';
const exchange = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  extra: Partial<RequestSpec> = {},
): Exchange => ({
  request: request(extra),
  url: 'http://h/api/v1/api-keys',
  status,
  headers: { 'content-type': json, 'x-request-id': 'req_1', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
  elapsedMs: 1,
});
const failed = (id: string, ex: Exchange) => checkExchange(ctx, op(id), ex).map((f) => f.check);
const keyList = {
  data: [
    {
      key_id: 'key_1',
      name: 'n',
      prefix: 'mg-v1-abc...',
      created_at: '2026-01-01T00:00:00.000Z',
      last_used_at: null,
      usage: 0,
      usage_daily: 0,
      usage_weekly: 0,
      usage_monthly: 0,
      limit: null,
      limit_remaining: null,
      limit_reset: null,
      expires_at: null,
      disabled: false,
      allowed_models: null,
    },
  ],
};
const error = (code: number) => ({ error: { code, message: 'm', metadata: {} } });

describe('response checks', () => {
  it('pass a conforming answer', () => {
    expect(failed('listApiKeys', exchange(200, keyList))).toEqual([]);
    expect(failed('listApiKeys', exchange(401, error(401), {}, { expect: 'unauthorized' }))).toEqual([]);
  });

  it('name each fault', () => {
    expect(failed('listApiKeys', exchange(500, error(500)))).toEqual(['not_a_server_error']);
    expect(failed('listApiKeys', exchange(418, error(418)))).toEqual(['status_code_conformance']);
    expect(failed('listApiKeys', exchange(418, error(418), { 'x-request-id': '' }))).toEqual([
      'status_code_conformance',
      'response_headers_conformance',
    ]);
    expect(failed('listApiKeys', exchange(200, '<html/>', { 'content-type': 'text/html' }))).toEqual([
      'content_type_conformance',
    ]);
    expect(failed('listApiKeys', exchange(200, { data: [{ key_id: 1 }] }))).toEqual(['response_schema_conformance']);
    expect(failed('listApiKeys', exchange(200, 'not json'))).toEqual(['response_schema_conformance']);
    expect(failed('listApiKeys', exchange(200, keyList, { 'x-request-id': '' }))).toEqual([
      'response_headers_conformance',
    ]);
    expect(
      failed('createApiKey', exchange(201, { ...keyList.data[0], key: 'k' }, {}, { expect: 'rejection' })),
    ).toEqual(['negative_data_rejection']);
    expect(failed('listApiKeys', exchange(200, keyList, {}, { expect: 'unauthorized' }))).toEqual(['ignored_auth']);
    // 409: a status listApiKeys does not document (it may answer 403 for another organization's header).
    expect(failed('listApiKeys', exchange(409, error(409), {}, { expect: 'unauthorized' }))).toEqual([
      'status_code_conformance',
      'ignored_auth',
    ]);
    expect(failed('listApiKeys', exchange(200, keyList, {}, { expect: 'deleted-credential' }))).toEqual([
      'use_after_free',
    ]);
    const dropped: Exchange = {
      ...exchange(200, ''),
      status: undefined,
      headers: {},
      error: 'ECONNRESET: socket hang up',
    };
    expect(failed('listApiKeys', dropped)).toEqual(['response_received']);
  });

  it('check documented headers and their types (429 Retry-After)', () => {
    const limits = {
      'retry-after': '3',
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '1760000000000',
    };
    expect(failed('createChatCompletion', exchange(429, error(429), limits))).toEqual([]);
    expect(failed('createChatCompletion', exchange(429, error(429), { ...limits, 'retry-after': 'soon' }))).toEqual([
      'response_headers_conformance',
    ]);
    const { 'retry-after': _omitted, ...withoutRetryAfter } = limits;
    expect(failed('createChatCompletion', exchange(429, error(429), withoutRetryAfter))).toEqual([
      'response_headers_conformance',
    ]);
  });

  describe('event streams', () => {
    const usage = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };
    const chunk = (id: string, delta: object, finish: string | null = null, extra: object = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    const errorChunk = (id: string, error: object | undefined) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'error', ...(error ? { error } : {}) }], usage })}\n\n`;
    const sse = (body: string) => exchange(200, body, { 'content-type': 'text/event-stream' });
    const good = `${chunk('gen-1', { role: 'assistant' })}${chunk('gen-1', { content: 'hi' })}${chunk('gen-1', {}, 'stop', { usage })}data: [DONE]\n\n`;
    const problems = (body: string) =>
      checkExchange(ctx, op('createChatCompletion'), sse(body)).map((f) => `${f.check}: ${f.message}`);

    it('accept a well-formed stream, keep-alive comments included, and a well-formed mid-stream error', () => {
      expect(problems(`: keep-alive\n\n${good}`)).toEqual([]);
      const failed = `${chunk('gen-1', { role: 'assistant' })}${chunk('gen-1', { content: 'hi' })}${errorChunk('gen-1', { code: 'server_error', message: 'upstream failed' })}data: [DONE]\n\n`;
      expect(problems(failed)).toEqual([]);
    });

    it('framing: a missing [DONE], events after it, two ids, no role first, usage not last → stream_framing', () => {
      const only = (body: string) => {
        const found = problems(body);
        expect(found.map((p) => p.split(':')[0])).toEqual(['stream_framing']);
        return found[0];
      };
      expect(only(chunk('gen-1', { role: 'assistant' }, 'stop', { usage }))).toMatch(
        /does not end with data: \[DONE\]/,
      );
      expect(only(`${good}${chunk('gen-1', {})}`)).toMatch(/after data: \[DONE\]/);
      expect(
        only(`${chunk('gen-1', { role: 'assistant' })}${chunk('gen-2', {}, 'stop', { usage })}data: [DONE]\n\n`),
      ).toMatch(/2 ids/);
      expect(
        only(`${chunk('gen-1', { content: 'x' })}${chunk('gen-1', {}, 'stop', { usage })}data: [DONE]\n\n`),
      ).toMatch(/first chunk does not carry delta.role/);
      expect(only(`${chunk('gen-1', { role: 'assistant' })}${chunk('gen-1', {}, 'stop')}data: [DONE]\n\n`)).toMatch(
        /last chunk before data: \[DONE\] carries no usage/,
      );
      expect(
        only(
          `${chunk('gen-1', { role: 'assistant' }, null, { usage })}${chunk('gen-1', {}, 'stop', { usage })}data: [DONE]\n\n`,
        ),
      ).toMatch(/usage appears in 2 chunks/);
    });

    it('a chunk off the schema or not JSON → response_schema_conformance', () => {
      expect(problems(`data: {"id":"gen-1"}\n\ndata: [DONE]\n\n`)[0]).toMatch(
        /^response_schema_conformance: .*does not match/,
      );
      expect(problems(`data: {oops\n\ndata: [DONE]\n\n`)[0]).toMatch(/^response_schema_conformance: .*not JSON/);
    });

    it('mid-stream error chunks: finish_reason "error" needs error.code and error.message, and ends the stream', () => {
      const start = chunk('gen-1', { role: 'assistant' });
      expect(problems(`${start}${errorChunk('gen-1', undefined)}data: [DONE]\n\n`)).toEqual([
        expect.stringMatching(/^mid_stream_error: .*without error.code/),
      ]);
      const early = `${start}${errorChunk('gen-1', { code: 'server_error', message: 'm' }).replace(',"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}', '')}${chunk('gen-1', {}, 'stop', { usage })}data: [DONE]\n\n`;
      expect(problems(early)).toEqual([
        expect.stringMatching(/^mid_stream_error: the error chunk \(1\) is followed by 1 more/),
      ]);
    });

    it('other operations and formats: only JSON events are required', () => {
      const messages = { ...op('createChatCompletion'), operationId: 'createMessage' };
      const anthropic =
        'event: message_start\ndata: {"type":"message_start"}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n';
      expect(checkExchange(ctx, messages, sse(anthropic)).map((f) => f.check)).toEqual([]);
      expect(checkExchange(ctx, messages, sse('data: not json\n\n')).map((f) => f.check)).toEqual([
        'response_schema_conformance',
      ]);
    });
  });

  it('unsupported_method: 405 with an Allow header naming the defined methods', () => {
    expect(allowProblem({ status: 405, allow: 'GET, POST' }, 'PUT', ['GET', 'POST'])).toBeUndefined();
    expect(allowProblem({ status: 405, allow: 'get,post,head' }, 'DELETE', ['GET', 'POST'])).toBeUndefined();
    expect(allowProblem({ status: 405, allow: undefined }, 'PUT', ['GET'])).toBe('405 without an Allow header');
    expect(allowProblem({ status: 405, allow: 'GET' }, 'PUT', ['GET', 'POST'])).toMatch(/lacks POST/);
    expect(allowProblem({ status: 405, allow: 'GET, PUT' }, 'PUT', ['GET'])).toMatch(/lists PUT/);
    expect(allowProblem({ status: 404, allow: undefined }, 'PUT', ['GET'])).toMatch(/answered 404, expected 405/);
    expect(allowProblem({ status: undefined, allow: undefined, error: 'ECONNRESET' }, 'PUT', ['GET'])).toMatch(
      /no response: ECONNRESET/,
    );
  });
});

describe('report', () => {
  it('prints each failure with its counterexample and a curl line, never the key', () => {
    const key = 'mg-v1-THISisTHEkeyTHISisTHEkey000000';
    const ex = exchange(
      500,
      { error: { code: 500, message: `boom ${key}` } },
      {},
      { authorization: { header: `Bearer ${key}`, shown: 'Bearer $MODELGATE_API_KEY' } },
    );
    const counterexample = toCounterexample(
      new ConformanceFailure(ex, [{ check: 'not_a_server_error', message: 'server error 500' }]),
      'not_a_server_error',
      'http://h/api/v1',
      [key],
    );
    const text = formatReport({
      baseUrl: 'http://h/api/v1',
      spec: { title: 'T', version: '1' },
      seed: 5,
      runs: 10,
      durationMs: 100,
      requests: 3,
      ok: false,
      results: [
        {
          check: 'not_a_server_error',
          target: 'GET /api-keys (listApiKeys) [valid inputs]',
          outcome: 'failed',
          runs: 3,
          counterexample,
        },
        { check: 'ignored_auth', target: 'GET /api-keys (listApiKeys) [bad credentials]', outcome: 'passed', runs: 10 },
        { check: 'stateful_credits', target: 'credits', outcome: 'skipped', runs: 0, note: 'no hook' },
      ],
    });
    expect(text).toContain('not_a_server_error            FAILED');
    expect(text).toContain(
      `curl -sS -i -N -X GET 'http://h/api/v1/api-keys' -H "Authorization: Bearer $MODELGATE_API_KEY"`,
    );
    expect(text).toContain('skipped: credits: no hook');
    expect(text).toContain('--seed 5');
    expect(text).not.toContain(key);
  });

  it('lists not-implemented extensions without failing, and writes JUnit XML with the curl line in the failure', () => {
    const ex = exchange(500, '<boom & "x">\u0001', {}, {});
    const counterexample = toCounterexample(
      new ConformanceFailure(ex, [{ check: 'not_a_server_error', message: 'server error 500' }]),
      'not_a_server_error',
      'http://h/api/v1',
      [],
    );
    const report = {
      baseUrl: 'http://h/api/v1',
      spec: { title: 'T', version: '1' },
      profile: 'modelgate',
      seed: 5,
      runs: 10,
      durationMs: 1500,
      requests: 3,
      ok: false,
      results: [
        {
          check: 'route_implemented' as const,
          target: 'GET /models (listModels)',
          outcome: 'not_implemented' as const,
          runs: 1,
          note: 'extension: GET /models answered 404',
        },
        {
          check: 'route_implemented' as const,
          target: 'GET /api-keys (listApiKeys)',
          outcome: 'passed' as const,
          runs: 1,
        },
        {
          check: 'not_a_server_error' as const,
          target: 'GET /api-keys (listApiKeys) [valid inputs]',
          outcome: 'failed' as const,
          runs: 3,
          counterexample,
        },
        {
          check: 'mid_stream_error' as const,
          target: 'POST /chat/completions (createChatCompletion) [mid-stream error trigger]',
          outcome: 'skipped' as const,
          runs: 0,
          note: 'no trigger',
        },
      ],
    };
    const text = formatReport(report);
    expect(text).toMatch(/^route_implemented\s+passed\s+1 targets, 1 runs$/m);
    expect(text).toContain('not implemented: GET /models (listModels)');
    expect(text).toContain('1 extension operation(s) not implemented');
    const xml = junitReport(report);
    expect(xml).toContain(
      '<testsuites name="modelgate conformance: T 1 at http://h/api/v1" tests="4" failures="1" errors="0" skipped="2" time="1.500">',
    );
    expect(xml).toContain('<testsuite name="route_implemented" tests="2" failures="0" errors="0" skipped="1">');
    expect(xml).toContain(
      '<testcase classname="conformance.route_implemented" name="GET /models (listModels)"><skipped message="not implemented: extension: GET /models answered 404"/></testcase>',
    );
    expect(xml).toContain('<failure message="server error 500" type="not_a_server_error">');
    expect(xml).toContain("curl -sS -i -N -X GET 'http://h/api/v1/api-keys'");
    expect(xml).toContain('&lt;boom &amp; "x"&gt;\ufffd');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the report must hold none of these control characters.
    expect(xml).not.toMatch(/[\u0000-\u0008]/);
    expect(xml).toContain('<property name="seed" value="5"/>');
  });
});
