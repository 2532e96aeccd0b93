import { describe, expect, it } from 'vitest';
import { toGeminiParameters, toGeminiSchema } from '../../../src/providers/gemini/index.js';
import { MAX_INLINED_REF_BYTES, SchemaBudget } from '../../../src/providers/gemini/convert-schema.js';
import { GatewayError } from '../../../src/core/gateway-error.js';
import { selfReferencingSchema } from './helpers.js';

describe('toGeminiSchema', () => {
  it('keeps the OpenAPI subset, upper-cases types and drops keywords Gemini rejects', () => {
    expect(
      toGeminiSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'x',
        title: 'Order',
        type: 'object',
        additionalProperties: false,
        properties: {
          id: { type: 'string', format: 'uuid', pattern: '^[a-f0-9-]+$', minLength: 36, maxLength: 36 },
          at: { type: 'string', format: 'date-time' },
          qty: { type: 'integer', format: 'int32', minimum: 1, maximum: 99, exclusiveMaximum: 100, multipleOf: 1 },
          price: { type: 'number', format: 'money', default: 0 },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5, uniqueItems: true },
          meta: { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
          'x-vendor': { type: 'boolean', deprecated: true, readOnly: true },
        },
        required: ['id', 'qty', 'ghost'],
        propertyOrdering: ['id', 'qty', 'ghost'],
        examples: [{ id: 'a' }],
      }),
    ).toEqual({
      title: 'Order',
      type: 'OBJECT',
      example: { id: 'a' },
      properties: {
        id: { type: 'STRING', pattern: '^[a-f0-9-]+$', minLength: 36, maxLength: 36 },
        at: { type: 'STRING', format: 'date-time' },
        qty: { type: 'INTEGER', format: 'int32', minimum: 1, maximum: 99 },
        price: { type: 'NUMBER', default: 0 },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, minItems: 1, maxItems: 5 },
        meta: { type: 'OBJECT' },
        'x-vendor': { type: 'BOOLEAN' },
      },
      required: ['id', 'qty'],
      propertyOrdering: ['id', 'qty'],
    });
  });

  it('turns null unions into nullable, oneOf into anyOf, const into enum', () => {
    expect(toGeminiSchema({ type: ['string', 'null'] })).toEqual({ type: 'STRING', nullable: true });
    expect(toGeminiSchema({ anyOf: [{ type: 'integer' }, { type: 'null' }] })).toEqual({
      type: 'INTEGER',
      nullable: true,
    });
    expect(toGeminiSchema({ oneOf: [{ type: 'integer' }, { type: 'string' }] })).toEqual({
      anyOf: [{ type: 'INTEGER' }, { type: 'STRING' }],
    });
    expect(toGeminiSchema({ type: ['integer', 'string'] })).toEqual({
      anyOf: [{ type: 'INTEGER' }, { type: 'STRING' }],
    });
    expect(toGeminiSchema({ const: 'fixed' })).toEqual({ enum: ['fixed'] });
  });

  it('keeps non-string enums as a description note, since Gemini enums are strings', () => {
    expect(toGeminiSchema({ type: 'integer', description: 'Stars.', enum: [1, 2, 3] })).toEqual({
      type: 'INTEGER',
      description: 'Stars. Allowed values: 1, 2, 3.',
    });
  });

  it('inlines local $refs (with sibling keywords), merges allOf, and cuts recursion', () => {
    const schema = {
      type: 'object',
      $defs: {
        Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] },
      },
      definitions: { Node: { type: 'object', properties: { next: { $ref: '#/definitions/Node' } } } },
      properties: {
        from: { $ref: '#/$defs/Point', description: 'Start' },
        both: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'string' } }, required: ['b'] },
          ],
        },
        list: { $ref: '#/definitions/Node' },
        missing: { $ref: '#/$defs/Nope' },
      },
    };
    const got = toGeminiSchema(schema) as { properties: Record<string, unknown> };
    expect(got.properties.from).toEqual({
      description: 'Start',
      type: 'OBJECT',
      properties: { x: { type: 'NUMBER' }, y: { type: 'NUMBER' } },
      required: ['x', 'y'],
    });
    expect(got.properties.both).toEqual({
      type: 'OBJECT',
      properties: { a: { type: 'STRING' }, b: { type: 'STRING' } },
      required: ['a', 'b'],
    });
    expect(got.properties.missing).toEqual({});
    let depth = 0;
    let node = got.properties.list as { properties?: { next: unknown } };
    while (node.properties) {
      node = node.properties.next as typeof node;
      depth++;
    }
    expect(depth).toBe(8);
  });

  it('parameters: an OBJECT with properties, or none at all', () => {
    expect(toGeminiParameters(undefined)).toBeUndefined();
    expect(toGeminiParameters({ type: 'object', properties: {} })).toBeUndefined();
    expect(toGeminiParameters({ type: 'object', properties: { q: { type: 'string' } } })).toEqual({
      type: 'OBJECT',
      properties: { q: { type: 'STRING' } },
    });
  });

  it('refuses, with 400 and quickly, a recursive $ref that would multiply the schema past the budget', () => {
    const schema = selfReferencingSchema();
    expect(JSON.stringify(schema).length).toBeLessThan(600);
    const started = performance.now();
    let thrown: unknown;
    try {
      toGeminiParameters(schema, new SchemaBudget(), { field: 'tools', label: 'tool tree' });
    } catch (err) {
      thrown = err;
    }
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({
      status: 400,
      metadata: { reason: 'schema_too_large', field: 'tools', limit_bytes: MAX_INLINED_REF_BYTES },
    });
    expect((thrown as Error).message).toContain('tool tree');
  });

  it('shares one budget across the schemas of a request, and counts only what inlined $refs emit', () => {
    // Large but ref-free: the client's own bytes, not counted.
    const wide = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 5000 }, (_, i) => [`p${i}`, { type: 'string', description: 'x'.repeat(100) }]),
      ),
    };
    expect(JSON.stringify(toGeminiSchema(wide, new SchemaBudget())).length).toBeGreaterThan(MAX_INLINED_REF_BYTES);
    // A definition of ~40 KB used once is fine; used by ten schemas of one request it passes the budget.
    const big = {
      $ref: '#/$defs/Big',
      $defs: { Big: { type: 'object', description: 'y'.repeat(40_000), properties: { a: { type: 'string' } } } },
    };
    const budget = new SchemaBudget();
    expect(() => {
      for (let i = 0; i < 5; i++) toGeminiSchema(big, budget);
    }).not.toThrow();
    expect(() => {
      for (let i = 0; i < 5; i++) toGeminiSchema(big, budget);
    }).toThrow(GatewayError);
  });
});
