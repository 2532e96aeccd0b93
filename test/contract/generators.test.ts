// The conformance library without a server: generators produce what the document accepts (valid) and rejects
// (mutations), and curl lines replay requests without ever containing a key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/conformance/openapi-document.js';
import { createSchemaValidator } from '../../src/conformance/schema-validator.js';
import { SchemaArbitraries } from '../../src/conformance/schema-arbitrary.js';
import { HUGE_STRING_LENGTH, mutationsOf } from '../../src/conformance/schema-mutations.js';
import { RequestArbitraries } from '../../src/conformance/request-arbitraries.js';
import { curlLine } from '../../src/conformance/curl.js';
import { mainCredential } from '../../src/conformance/request-spec.js';
import { apiRoot } from '../../src/conformance/runner.js';

const doc = await loadDocument();
const validator = createSchemaValidator(doc);
const KEY = 'mg-v1-SECRETsecretSECRETsecret12345';
const requests = new RequestArbitraries(doc, validator, { apiKey: KEY, model: 'openai/gpt-test' });
const bodies = doc.operations.flatMap((op) =>
  Object.entries(op.requestBody?.content ?? {}).map(([type, node]) => ({ op, type, node })),
);

describe('document', () => {
  it('lists every operation with its documented responses, resolving $refs', () => {
    const ids = doc.operations.map((op) => op.operationId);
    expect(ids).toEqual(
      expect.arrayContaining(['createChatCompletion', 'listApiKeys', 'createApiKey', 'deleteApiKey', 'listModels']),
    );
    const chat = doc.operations.find((op) => op.operationId === 'createChatCompletion')!;
    expect(Object.keys(chat.responses['200'].content).sort()).toEqual(['application/json', 'text/event-stream']);
    expect(chat.responses['200'].headers['x-request-id'].required).toBe(true);
    expect(doc.resolve(chat.requestBody!.content['application/json']).pointer).toBe(
      '#/components/schemas/ChatCompletionRequest',
    );
    // Every operation needs a credential except the health probes (load balancers hold none).
    expect(
      doc.operations
        .filter((op) => !op.secured)
        .map((op) => op.operationId)
        .sort(),
    ).toEqual(['getHealth', 'getReadiness']);
  });
});

describe('valid generators', () => {
  it.each(bodies.map((b) => [b.op.operationId, b]))(
    '%s: every generated body is valid against the request schema',
    (_id, { node }) => {
      // Without the validator guard the request layer adds, to test the walker itself.
      const raw = new SchemaArbitraries(doc).of(node);
      for (const value of fc.sample(raw, { numRuns: 200, seed: 42 })) {
        const result = validator.validate(node.pointer, value);
        expect(result.errors, JSON.stringify(value).slice(0, 400)).toEqual([]);
      }
    },
  );

  it('generates every response schema too (used to check the checks)', () => {
    for (const name of ['ChatCompletion', 'ChatCompletionChunk', 'ModelList', 'ApiKeyList', 'ErrorResponse']) {
      const node = doc.at(`#/components/schemas/${name}`);
      for (const value of fc.sample(new SchemaArbitraries(doc).of(node), { numRuns: 50, seed: 1 }))
        expect(validator.isValid(node.pointer, value)).toBe(true);
    }
  });

  it('valid chat requests mostly name the served model and contain a user message', () => {
    const chat = doc.operations.find((op) => op.operationId === 'createChatCompletion')!;
    const samples = fc.sample(requests.valid(chat), { numRuns: 200, seed: 3 }).map((r) => JSON.parse(r.body!));
    const served = samples.filter((b) => b.model === 'openai/gpt-test').length;
    const withUser = samples.filter((b) => b.messages.some((m: { role: string }) => m.role === 'user')).length;
    expect(served).toBeGreaterThan(150);
    expect(withUser).toBeGreaterThan(140);
  });
});

describe('invalid generators', () => {
  it('mutations the request layer marks as rejections are rejected by the schema; the others are valid', () => {
    for (const { op, node } of bodies) {
      const specs = fc.sample(requests.invalid(op)!, { numRuns: 300, seed: 5 });
      const kinds = new Set<string>();
      for (const spec of specs) {
        kinds.add(spec.description.replace(/^.*?: /, '').replace(/\d+/g, 'N'));
        if (spec.headers['content-type'] !== 'application/json' || spec.body === undefined) continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(spec.body);
        } catch {
          expect(spec.expect).toBe('rejection');
          continue;
        }
        expect(validator.isValid(node.pointer, parsed), `${op.operationId}: ${spec.description}`).toBe(
          spec.expect !== 'rejection',
        );
      }
      expect(kinds.size, `${op.operationId} mutation kinds: ${[...kinds].join(' | ')}`).toBeGreaterThan(6);
    }
  });

  it('covers missing required, wrong type, enum, range, nesting, huge strings, malformed JSON and wrong content type', () => {
    const chat = doc.operations.find((op) => op.operationId === 'createChatCompletion')!;
    const seen = fc
      .sample(requests.invalid(chat)!, { numRuns: 1000, seed: 1 })
      .map((r) => r.description)
      .join('\n');
    for (const kind of [
      'required property',
      'wrong type',
      'outside the enum',
      'above maximum',
      'extra nesting',
      `huge string (${HUGE_STRING_LENGTH}`,
      'malformed JSON',
      'wrong content type',
      'required body missing',
    ]) {
      expect(seen).toContain(kind);
    }
  });

  it('every mutation of a value changes it', () => {
    const node = doc.at('#/components/schemas/ChatCompletionRequest');
    const value = { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], temperature: 1 };
    const mutations = mutationsOf(doc, validator, node, value);
    expect(mutations.length).toBeGreaterThan(15);
    for (const m of mutations) expect(JSON.stringify(m.build()), m.description).not.toBe(JSON.stringify(value));
    expect(mutations.map((m) => m.description)).toEqual(
      expect.arrayContaining([
        'temperature: above maximum 2',
        'messages[0]: required property "role" removed',
        'messages[0].role: value outside the enum',
      ]),
    );
  });

  it('breaks required query parameters', () => {
    const op = doc.operations.find((o) => o.operationId === 'getGeneration')!;
    const descriptions = new Set(fc.sample(requests.invalid(op)!, { numRuns: 100, seed: 2 }).map((r) => r.description));
    expect([...descriptions]).toEqual(
      expect.arrayContaining(['required query parameter "id" missing', 'query parameter "id" = "" breaks its schema']),
    );
  });
});

describe('credentials and curl lines', () => {
  it('bad-credential requests never carry the real key, and curl lines never print it', () => {
    for (const op of doc.operations) {
      for (const spec of fc.sample(requests.unauthorized(op), { numRuns: 60, seed: 9 })) {
        expect(spec.expect).toBe('unauthorized');
        expect(spec.authorization?.header).not.toBe(`Bearer ${KEY}`);
        expect(curlLine(spec, 'http://127.0.0.1:1/api/v1')).not.toContain(KEY);
        expect(curlLine(spec, 'http://127.0.0.1:1/api/v1')).not.toContain(KEY.slice(0, -1));
      }
    }
  });

  it('uses $MODELGATE_API_KEY, quotes the body for the shell and generates huge strings instead of printing them', () => {
    const spec = {
      operationId: 'createApiKey',
      method: 'POST',
      path: '/api-keys',
      query: [] as [string, string][],
      headers: { 'content-type': 'application/json' },
      authorization: mainCredential(KEY),
      body: JSON.stringify({ name: `it's ${'A'.repeat(1000)}` }),
      description: 'x',
    };
    const line = curlLine(spec, 'http://127.0.0.1:8080/api/v1');
    expect(line).toContain(`-H "Authorization: Bearer $MODELGATE_API_KEY"`);
    expect(line).toContain("head -c 1000 /dev/zero | tr '\\0' 'A'");
    expect(line.length).toBeLessThan(400);
    expect(curlLine({ ...spec, body: '{"a":"it\'s"}' }, 'http://h/api/v1')).toContain(
      `--data-binary '{"a":"it'\\''s"}'`,
    );
    expect(curlLine({ ...spec, headers: {}, body: '{}' }, 'http://h/api/v1')).toContain(`-H 'Content-Type:'`);
  });

  it('derives the API root from a bare origin', () => {
    expect(apiRoot('http://127.0.0.1:8080', '/api/v1')).toBe('http://127.0.0.1:8080/api/v1');
    expect(apiRoot('http://127.0.0.1:8080/', '/api/v1')).toBe('http://127.0.0.1:8080/api/v1');
    expect(apiRoot('https://gw.example.com/api/v1/', '/api/v1')).toBe('https://gw.example.com/api/v1');
  });
});
