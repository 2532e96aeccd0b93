// The published API reference is only as good as the document behind it: every operation, parameter, response,
// schema and property must explain itself, every operation and response must show an example, and every example
// must be valid against its own schema (a wrong example in the docs is worse than none).
import { readFileSync } from 'node:fs';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { errorTypeOfStatus } from '../../src/formats/messages/error-body.js';

const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

type Json = Record<string, any>;
const doc: Json = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({
    path,
    method,
    op: item[method] as Json,
    name: `${method.toUpperCase()} ${path}`,
  })),
);

const deref = (node: Json): Json => {
  if (!node?.$ref) return node;
  const [, section, kind, name] = (node.$ref as string).split('/');
  return doc[section][kind][name];
};

/** Media types with their examples: `example` or the values of `examples`. */
function examplesOf(media: Json): unknown[] {
  if (media.example !== undefined) return [media.example];
  return Object.values((media.examples ?? {}) as Json).map((e) => deref(e).value);
}

/** Every property of every (nested, inline) object schema below `schema`, with its dotted location. */
function* properties(schema: Json, at: string): Generator<[string, Json]> {
  if (!schema || typeof schema !== 'object' || schema.$ref) return;
  for (const [name, prop] of Object.entries((schema.properties ?? {}) as Json)) {
    yield [`${at}.${name}`, prop];
    yield* properties(prop, `${at}.${name}`);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const [i, sub] of ((schema[key] ?? []) as Json[]).entries()) yield* properties(sub, `${at}.${key}[${i}]`);
  }
  if (schema.items) yield* properties(schema.items, `${at}[]`);
  if (typeof schema.additionalProperties === 'object') yield* properties(schema.additionalProperties, `${at}{}`);
}

// One Ajv for the whole document: refs inside a media schema point at `openapi#/components/...`.
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'openapi', components: doc.components });
const compileMedia = (schema: Json) =>
  ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')));

describe('emitted OpenAPI document: descriptions', () => {
  it('has operations to check', () => {
    expect(operations.length).toBeGreaterThanOrEqual(9);
  });

  it('describes every operation and parameter', () => {
    const missing: string[] = [];
    for (const { name, op } of operations) {
      for (const field of ['operationId', 'summary', 'description']) if (!op[field]) missing.push(`${name}: ${field}`);
      if (!op.tags?.length) missing.push(`${name}: tags`);
      for (const parameter of (op.parameters ?? []).map(deref)) {
        if (!parameter.description) missing.push(`${name}: parameter ${parameter.in} ${parameter.name}`);
      }
      if (op.requestBody && !deref(op.requestBody).description && !op.requestBody.content)
        missing.push(`${name}: request body`);
    }
    expect(missing).toEqual([]);
  });

  it('describes every response, including every error status', () => {
    const missing: string[] = [];
    for (const { name, op } of operations) {
      const statuses = Object.keys(op.responses ?? {});
      if (!statuses.some((s) => s.startsWith('2'))) missing.push(`${name}: no success response`);
      if (!statuses.some((s) => /^[45]/.test(s))) missing.push(`${name}: no error response`);
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (!deref(response).description) missing.push(`${name} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('describes every schema and every property, nested ones included', () => {
    const missing: string[] = [];
    for (const [schemaName, schema] of Object.entries(doc.components.schemas as Json)) {
      if (!schema.description) missing.push(schemaName);
      for (const [location, prop] of properties(schema, schemaName)) {
        // A bare $ref cannot carry a description in OpenAPI 3.0 (siblings are ignored): TypeSpec wraps documented
        // references in allOf, so a bare one here is a property without its own /** */ comment.
        if (!prop.description) missing.push(location);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('emitted OpenAPI document: examples', () => {
  it('shows an example for every request body and every response of every operation', () => {
    const missing: string[] = [];
    for (const { name, op } of operations) {
      for (const [type, media] of Object.entries((deref(op.requestBody ?? {}).content ?? {}) as Json)) {
        if (examplesOf(media).length === 0) missing.push(`${name} request ${type}`);
      }
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const content = (deref(response).content ?? {}) as Json;
        for (const [type, media] of Object.entries(content)) {
          if (examplesOf(media).length === 0) missing.push(`${name} ${status} ${type}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('has examples that are valid against their schemas', () => {
    const invalid: string[] = [];
    let checked = 0;
    const check = (where: string, media: Json) => {
      const validate = compileMedia(media.schema ?? {});
      for (const example of examplesOf(media)) {
        checked++;
        if (!validate(example)) invalid.push(`${where}: ${ajv.errorsText(validate.errors)}`);
      }
    };
    for (const { name, op } of operations) {
      for (const [type, media] of Object.entries((deref(op.requestBody ?? {}).content ?? {}) as Json))
        check(`${name} request ${type}`, media);
      for (const [status, response] of Object.entries(op.responses as Json)) {
        for (const [type, media] of Object.entries((deref(response).content ?? {}) as Json))
          check(`${name} ${status} ${type}`, media);
      }
    }
    for (const [schemaName, schema] of Object.entries(doc.components.schemas as Json)) {
      if (schema.example === undefined) continue;
      checked++;
      const validate = compileMedia({ $ref: `#/components/schemas/${schemaName}` });
      if (!validate(schema.example)) invalid.push(`schema ${schemaName}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(invalid).toEqual([]);
    expect(checked).toBeGreaterThan(operations.length * 3);
  });

  it('shows each error with its own status as error.code', () => {
    const wrong: string[] = [];
    for (const { name, op } of operations) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (!/^[45]/.test(status)) continue;
        for (const example of examplesOf(deref(response).content['application/json'])) {
          // The Messages routes answer in Anthropic's shape: the error type names the status instead.
          if ((example as Json).type === 'error') {
            if ((example as Json).error?.type !== errorTypeOfStatus(Number(status))) wrong.push(`${name} ${status}`);
          } else if ((example as Json).error?.code !== Number(status)) wrong.push(`${name} ${status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('shows a streamed completion as SSE data lines ending with [DONE]', () => {
    const media = doc.paths['/chat/completions'].post.responses['200'].content['text/event-stream'];
    const [stream] = examplesOf(media) as string[];
    const events = stream.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, '')));
    const validateChunk = compileMedia({ $ref: '#/components/schemas/ChatCompletionChunk' });
    for (const chunk of chunks) expect(validateChunk(chunk), ajv.errorsText(validateChunk.errors)).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.at(-1).usage).toBeDefined();
  });
});
