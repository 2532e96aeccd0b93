// fast-check arbitraries for the values a schema of the OpenAPI document accepts. We write this walker rather than
// use a JSON-Schema → fast-check package: the ones on npm are archived (json-schema-fast-check, fast-check 1.x,
// no oneOf), generate source code to be written to disk (@amritk/generate-examples), or produce values that
// fast-check cannot shrink (json-schema-faker). Built from fast-check's own combinators, every value shrinks, so
// a failure is reported with a small counterexample.
//
// Handles the OpenAPI 3.0 subset TypeSpec emits: $ref, allOf (merged), oneOf/anyOf (with or without
// discriminator: branches carry single-value enums), nullable, enum, min/max, exclusive bounds, lengths, item
// counts, patterns, date-time / int32 / int64 formats, and free-form objects (`additionalProperties`).
import fc from 'fast-check';
import type { OpenApiDocument, Schema, SchemaNode } from './openapi-document.js';
import { boundedFilter } from './bounded-filter.js';

export interface ArbitraryOptions {
  /** Below this depth optional properties are left out and arrays take their minimum length. */
  maxDepth?: number;
  /** Longest generated array beyond its `minItems`. */
  maxItems?: number;
  /** Longest generated unconstrained string. */
  maxStringLength?: number;
  /**
   * Replace the arbitrary at a property path (`/model`, `/messages`) of the generated value; the function receives
   * the schema's own arbitrary to mix in.
   */
  overrides?: Record<string, (fromSchema: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>>;
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const SAFE = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };
const FEW_OPTIONAL = 3;
/** Characters that commonly break databases, logs, headers or JSON handling; random generation rarely hits them. */
const AWKWARD_CHARACTERS = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\u202e',
  '\ufeff',
  '\u0085',
  '\u2028',
  '"',
  "'",
  '\\',
  '\n',
  '\r',
  '%',
  '😀',
  'e\u0301',
];

export class SchemaArbitraries {
  private readonly maxDepth: number;
  private readonly maxItems: number;
  private readonly maxStringLength: number;

  constructor(
    private readonly doc: OpenApiDocument,
    private readonly options: ArbitraryOptions = {},
  ) {
    this.maxDepth = options.maxDepth ?? 6;
    this.maxItems = options.maxItems ?? 3;
    this.maxStringLength = options.maxStringLength ?? 24;
  }

  /** Values valid against the schema at `node`. */
  of(node: SchemaNode): fc.Arbitrary<unknown> {
    return this.build(node.schema, 0, '');
  }

  private build(input: Schema, depth: number, path: string): fc.Arbitrary<unknown> {
    const override = this.options.overrides?.[path];
    const own = this.buildOwn(input, depth, path);
    return override && path !== '' ? override(own) : own;
  }

  private buildOwn(input: Schema, depth: number, path: string): fc.Arbitrary<unknown> {
    const schema = this.deref(input);
    const base = this.nonNull(schema, depth, path);
    // `nullable` may sit on the referencing schema or on the referenced one.
    return schema.nullable || input.nullable ? fc.option(base, { nil: null, freq: 6 }) : base;
  }

  private nonNull(schema: Schema, depth: number, path: string): fc.Arbitrary<unknown> {
    if (schema.enum) {
      const values = schema.enum.filter((v) => v !== null);
      return values.length > 0 ? fc.constantFrom(...values) : fc.constant(null);
    }
    if (schema.allOf) {
      return schema.allOf.length === 1 && !schema.properties
        ? this.build(schema.allOf[0], depth, path)
        : this.object(this.mergeAllOf(schema), depth, path);
    }
    const branches = schema.oneOf ?? schema.anyOf;
    if (branches) return fc.oneof(...branches.map((branch) => this.build(branch, depth, path)));
    switch (schema.type) {
      case 'string':
        return this.string(schema);
      case 'integer':
        return this.integer(schema);
      case 'number':
        return this.number(schema);
      case 'boolean':
        return fc.boolean();
      case 'array':
        return this.array(schema, depth, path);
      case 'object':
        return this.object(schema, depth, path);
      default:
        return schema.properties ? this.object(schema, depth, path) : fc.jsonValue({ maxDepth: 2 });
    }
  }

  private deref(schema: Schema): Schema {
    return schema.$ref ? this.doc.resolve({ pointer: schema.$ref, schema }).schema : schema;
  }

  /** allOf of object schemas → one object schema with every part's properties and required names. */
  private mergeAllOf(schema: Schema): Schema {
    const merged: Schema = {
      type: 'object',
      properties: { ...schema.properties },
      required: [...(schema.required ?? [])],
    };
    for (const part of schema.allOf ?? []) {
      const resolved = this.deref(part);
      const flat = resolved.allOf ? this.mergeAllOf(resolved) : resolved;
      Object.assign(merged.properties!, flat.properties);
      merged.required!.push(...(flat.required ?? []));
    }
    return merged;
  }

  private string(schema: Schema): fc.Arbitrary<string> {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? min + this.maxStringLength;
    const fits = (s: string) => {
      const length = [...s].length; // Ajv counts code points, like this
      return length >= min && length <= max;
    };
    if (schema.pattern)
      return boundedFilter(
        matching(schema.pattern, min, max, this.maxStringLength),
        fits,
        `a string matching ${schema.pattern} of length ${min}..${max}`,
      );
    switch (schema.format) {
      case 'date-time':
        return fc
          .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
          .map((d) => d.toISOString());
      case 'uuid':
        return fc.uuid();
      case 'email':
        return fc.emailAddress();
      case 'uri':
        return fc.webUrl();
    }
    return textArbitrary(min, Math.min(max, min + this.maxStringLength)).filter(fits);
  }

  private integer(schema: Schema): fc.Arbitrary<number> {
    const range = schema.format === 'int32' ? INT32 : SAFE;
    let min = Math.max(range.min, Math.ceil(schema.minimum ?? range.min));
    let max = Math.min(range.max, Math.floor(schema.maximum ?? range.max));
    if (schema.exclusiveMinimum && schema.minimum !== undefined && min === schema.minimum) min += 1;
    if (schema.exclusiveMaximum && schema.maximum !== undefined && max === schema.maximum) max -= 1;
    return fc.integer({ min, max });
  }

  private number(schema: Schema): fc.Arbitrary<number> {
    return fc.double({
      min: schema.minimum,
      max: schema.maximum,
      minExcluded: schema.exclusiveMinimum === true,
      maxExcluded: schema.exclusiveMaximum === true,
      noNaN: true,
      noDefaultInfinity: true,
    });
  }

  private array(schema: Schema, depth: number, path: string): fc.Arbitrary<unknown[]> {
    const minLength = schema.minItems ?? 0;
    const room = depth >= this.maxDepth ? 0 : this.maxItems;
    const maxLength = Math.min(schema.maxItems ?? Number.MAX_SAFE_INTEGER, minLength + room);
    return fc.array(this.build(schema.items ?? {}, depth + 1, `${path}/*`), { minLength, maxLength });
  }

  private object(schema: Schema, depth: number, path: string): fc.Arbitrary<Record<string, unknown>> {
    const properties = schema.properties ?? {};
    const required = (schema.required ?? []).filter((name) => name in properties);
    const names = Object.keys(properties).filter((name) => depth < this.maxDepth || required.includes(name));
    if (names.length === 0 && schema.additionalProperties) {
      const values =
        typeof schema.additionalProperties === 'object'
          ? this.build(schema.additionalProperties, depth + 1, `${path}/*`)
          : fc.jsonValue({ maxDepth: 1 });
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), values, {
        maxKeys: depth >= this.maxDepth ? 0 : 3,
      });
    }
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const name of names) model[name] = this.build(properties[name], depth + 1, `${path}/${name}`);
    const all = fc.record(model, { requiredKeys: required, noNullPrototype: true }) as fc.Arbitrary<
      Record<string, unknown>
    >;
    const optional = names.filter((name) => !required.includes(name));
    if (optional.length <= FEW_OPTIONAL) return all;
    // With many optional properties, a record that flips a coin for each almost always combines several rarely
    // used options (and gets a legitimate 400 for the combination); often keep only a few of them, so plain
    // requests reach the handler's main path too.
    const few = fc.subarray(optional, { maxLength: FEW_OPTIONAL }).chain((chosen) => {
      const subset = Object.fromEntries([...required, ...chosen].map((name) => [name, model[name]]));
      return fc.record(subset, { noNullPrototype: true }) as fc.Arbitrary<Record<string, unknown>>;
    });
    return fc.oneof({ weight: 2, arbitrary: few }, { weight: 1, arbitrary: all });
  }
}

const texts = new Map<string, fc.Arbitrary<string>>();
// Any code point, surrogate halves included. fast-check's own `unit: 'binary'` does the same but first builds a
// reverse mapping of all 1.1M code points (about 2 s of CPU per process), which a test run cannot afford.
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp));

/**
 * Mostly printable ASCII, sometimes any Unicode (emoji, combining marks), raw code points, or text seeded with the
 * characters that break storage and transport (NUL, lone surrogates, bidi overrides, line separators): all valid
 * JSON strings that a server has to store, forward or refuse cleanly — never with a 500. Built once per length range.
 */
function textArbitrary(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const key = `${minLength}:${maxLength}`;
  let arb = texts.get(key);
  if (!arb) {
    const bounded = { minLength, maxLength };
    arb = fc.oneof(
      { weight: 6, arbitrary: fc.string(bounded) },
      { weight: 2, arbitrary: fc.string({ ...bounded, unit: 'grapheme' }) },
      { weight: 1, arbitrary: fc.string({ ...bounded, unit: anyCodePoint }) },
      {
        weight: 1,
        arbitrary: fc.string({
          ...bounded,
          unit: fc.oneof(fc.constantFrom(...AWKWARD_CHARACTERS), fc.string({ minLength: 1, maxLength: 1 })),
        }),
      },
    );
    texts.set(key, arb);
  }
  return arb;
}

/**
 * Strings matching `pattern`. fast-check draws from a pattern's own grammar, but knows no lookahead: a pattern that
 * only excludes words (`^(?!(text|image)$)`, the open member of a union: any type but the documented ones) is drawn
 * from plain text and filtered by the whole pattern.
 */
function matching(pattern: string, min: number, max: number, maxStringLength: number): fc.Arbitrary<string> {
  const regex = new RegExp(pattern, 'u');
  const exclusion = /^\^\(\?!(.*)\)$/u.exec(pattern);
  if (!exclusion) return fc.stringMatching(regex);
  return textArbitrary(Math.max(min, 1), Math.min(max, min + maxStringLength)).filter((s) => regex.test(s));
}
