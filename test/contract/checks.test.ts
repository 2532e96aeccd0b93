// Each response check on hand-made exchanges: it fails on exactly the fault it is named for and passes a
// conforming answer — so a green conformance run means something.
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/conformance/openapi-document.js';
import { createSchemaValidator } from '../../src/conformance/schema-validator.js';
import { checkExchange, type CheckContext } from '../../src/conformance/response-checks.js';
import type { Exchange } from '../../src/conformance/http-exchange.js';
import type { RequestSpec } from '../../src/conformance/request-spec.js';
import { formatReport } from '../../src/conformance/report.js';
import { ConformanceFailure, toCounterexample } from '../../src/conformance/counterexample.js';

const doc = await loadDocument();
const ctx: CheckContext = { doc, validator: createSchemaValidator(doc), eventSchemaPointer: '#/components/schemas/ChatCompletionChunk' };
const op = (id: string) => doc.operations.find((o) => o.operationId === id)!;

const request = (extra: Partial<RequestSpec> = {}): RequestSpec => ({
  operationId: 'listApiKeys', method: 'GET', path: '/api-keys', query: [], headers: {}, description: 'valid request', ...extra,
});
const json = 'application/json; charset=utf-8';
const exchange = (status: number, body: unknown, headers: Record<string, string> = {}, extra: Partial<RequestSpec> = {}): Exchange => ({
  request: request(extra),
  url: 'http://h/api/v1/api-keys',
  status,
  headers: { 'content-type': json, 'x-request-id': 'req_1', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
  elapsedMs: 1,
});
const failed = (id: string, ex: Exchange) => checkExchange(ctx, op(id), ex).map((f) => f.check);
const keyList = {
  data: [{
    key_id: 'key_1', name: 'n', prefix: 'mg-v1-abc...', created_at: '2026-01-01T00:00:00.000Z', last_used_at: null,
    usage: 0, usage_daily: 0, usage_weekly: 0, usage_monthly: 0, limit: null, limit_remaining: null, limit_reset: null,
    expires_at: null, disabled: false, allowed_models: null,
  }],
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
    expect(failed('listApiKeys', exchange(418, error(418), { 'x-request-id': '' }))).toEqual(['status_code_conformance', 'response_headers_conformance']);
    expect(failed('listApiKeys', exchange(200, '<html/>', { 'content-type': 'text/html' }))).toEqual(['content_type_conformance']);
    expect(failed('listApiKeys', exchange(200, { data: [{ key_id: 1 }] }))).toEqual(['response_schema_conformance']);
    expect(failed('listApiKeys', exchange(200, 'not json'))).toEqual(['response_schema_conformance']);
    expect(failed('listApiKeys', exchange(200, keyList, { 'x-request-id': '' }))).toEqual(['response_headers_conformance']);
    expect(failed('createApiKey', exchange(201, { ...keyList.data[0], key: 'k' }, {}, { expect: 'rejection' }))).toEqual(['negative_data_rejection']);
    expect(failed('listApiKeys', exchange(200, keyList, {}, { expect: 'unauthorized' }))).toEqual(['ignored_auth']);
    expect(failed('listApiKeys', exchange(403, error(403), {}, { expect: 'unauthorized' }))).toEqual(['status_code_conformance', 'ignored_auth']);
    expect(failed('listApiKeys', exchange(200, keyList, {}, { expect: 'deleted-credential' }))).toEqual(['use_after_free']);
    const dropped: Exchange = { ...exchange(200, ''), status: undefined, headers: {}, error: 'ECONNRESET: socket hang up' };
    expect(failed('listApiKeys', dropped)).toEqual(['response_received']);
  });

  it('check documented headers and their types (429 Retry-After)', () => {
    const limits = { 'retry-after': '3', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1760000000000' };
    expect(failed('createChatCompletion', exchange(429, error(429), limits))).toEqual([]);
    expect(failed('createChatCompletion', exchange(429, error(429), { ...limits, 'retry-after': 'soon' }))).toEqual(['response_headers_conformance']);
    const { 'retry-after': _omitted, ...withoutRetryAfter } = limits;
    expect(failed('createChatCompletion', exchange(429, error(429), withoutRetryAfter))).toEqual(['response_headers_conformance']);
  });

  describe('event streams', () => {
    const chunk = (id: string, delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const sse = (body: string) => exchange(200, body, { 'content-type': 'text/event-stream' });
    const good = chunk('gen-1', { role: 'assistant' }) + chunk('gen-1', { content: 'hi' }, 'stop') + 'data: [DONE]\n\n';

    it('accept a well-formed stream, keep-alive comments included', () => {
      expect(failed('createChatCompletion', sse(`: keep-alive\n\n${good}`))).toEqual([]);
    });

    it('reject a missing [DONE], events after it, a chunk off the schema, non-JSON data and two ids', () => {
      const problem = (body: string) => checkExchange(ctx, op('createChatCompletion'), sse(body)).map((f) => f.message).join();
      expect(problem(chunk('gen-1', { content: 'a' }))).toMatch(/does not end with data: \[DONE\]/);
      expect(problem(`${good}${chunk('gen-1', {})}`)).toMatch(/after data: \[DONE\]/);
      expect(problem(`data: {"id":"gen-1"}\n\ndata: [DONE]\n\n`)).toMatch(/does not match/);
      expect(problem(`data: {oops\n\ndata: [DONE]\n\n`)).toMatch(/not JSON/);
      expect(problem(chunk('gen-1', { role: 'assistant' }) + chunk('gen-2', { content: 'x' }) + 'data: [DONE]\n\n')).toMatch(/2 ids/);
    });
  });
});

describe('report', () => {
  it('prints each failure with its counterexample and a curl line, never the key', () => {
    const key = 'mg-v1-THISisTHEkeyTHISisTHEkey000000';
    const ex = exchange(500, { error: { code: 500, message: `boom ${key}` } }, {}, { authorization: { header: `Bearer ${key}`, shown: 'Bearer $MODELGATE_API_KEY' } });
    const counterexample = toCounterexample(new ConformanceFailure(ex, [{ check: 'not_a_server_error', message: 'server error 500' }]), 'not_a_server_error', 'http://h/api/v1', [key]);
    const text = formatReport({
      baseUrl: 'http://h/api/v1', spec: { title: 'T', version: '1' }, seed: 5, runs: 10, durationMs: 100, requests: 3, ok: false,
      results: [
        { check: 'not_a_server_error', target: 'GET /api-keys (listApiKeys) [valid inputs]', outcome: 'failed', runs: 3, counterexample },
        { check: 'ignored_auth', target: 'GET /api-keys (listApiKeys) [bad credentials]', outcome: 'passed', runs: 10 },
        { check: 'stateful_credits', target: 'credits', outcome: 'skipped', runs: 0, note: 'no hook' },
      ],
    });
    expect(text).toContain('not_a_server_error            FAILED');
    expect(text).toContain(`curl -sS -i -N -X GET 'http://h/api/v1/api-keys' -H "Authorization: Bearer $MODELGATE_API_KEY"`);
    expect(text).toContain('skipped: credits: no hook');
    expect(text).toContain('--seed 5');
    expect(text).not.toContain(key);
  });
});
