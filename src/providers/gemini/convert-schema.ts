// JSON Schema (what clients send for tool parameters and response_format) → Gemini's `Schema`, "a select
// subset of an OpenAPI 3.0 schema object" (https://ai.google.dev/api/caching#Schema). Gemini answers 400 to
// keywords outside that subset, so the conversion is a whitelist:
//   kept:      type, format (per-type values Gemini accepts), title, description, nullable, enum (strings),
//              items, minItems, maxItems, properties, required, minProperties, maxProperties, minLength,
//              maxLength, pattern, minimum, maximum, default, example, anyOf, propertyOrdering
//   rewritten: type arrays and `null` → type + nullable; oneOf → anyOf; allOf → merged; const → enum;
//              examples → example; local $ref (#/$defs, #/definitions) → inlined; non-string enums → a
//              description note (Gemini enums are strings only); required → only names in properties
//   dropped:   $schema, $id, $comment, $defs, definitions, additionalProperties, patternProperties,
//              unevaluated*, propertyNames, dependent*, if/then/else, not, contains, uniqueItems,
//              multipleOf, exclusiveMinimum/Maximum, prefixItems, content*, readOnly, writeOnly,
//              deprecated, strict, x-* extensions, and anything else not listed as kept.
// Inlining $refs can multiply a schema: a definition whose 6 properties each refer to itself grows 6-fold per level
// (519 bytes became a 43 MB upstream body). Recursion is unrolled MAX_REF_DEPTH levels deep and cut there, and what
// the inlined $refs emit, over the whole request, is bounded by a SchemaBudget: past it the request is refused with
// 400 during translation, before anything is sent (docs/limits-and-hardening.md).
import { GatewayError } from '../../core/gateway-error.js';

type Json = Record<string, unknown>;

const TYPES: Readonly<Record<string, string>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
};

/** `format` values the Gemini API accepts per type; others are rejected upstream, so they are dropped. */
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  STRING: ['enum', 'date-time'],
  NUMBER: ['float', 'double'],
  INTEGER: ['int32', 'int64'],
};

const COUNTS = ['minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength'] as const;

/** Deeper $ref chains are cut: a recursive schema cannot be inlined and Gemini has no refs. */
const MAX_REF_DEPTH = 8;

/** Most bytes the inlined $refs of one request's schemas may emit (estimated as they are converted). */
export const MAX_INLINED_REF_BYTES = 256 * 1024;

/** Keys whose values are converted schemas, counted when those are converted. */
const CHILD_SCHEMA_KEYS = new Set(['properties', 'items', 'anyOf']);

/** What the inlined $refs of one request have emitted so far; shared by all its tool schemas and its response schema. */
export class SchemaBudget {
  private bytes = 0;

  /** Counts a converted node's own bytes (its child schemas count themselves); 400 once the total passes the limit. */
  spend(node: Json, place: SchemaPlace): void {
    for (const [key, value] of Object.entries(node)) {
      this.bytes += key.length + 4;
      if (key === 'properties') for (const name of Object.keys(value as Json)) this.bytes += name.length + 4;
      else if (!CHILD_SCHEMA_KEYS.has(key))
        this.bytes += typeof value === 'string' ? value.length + 2 : JSON.stringify(value).length;
    }
    this.bytes += 2;
    if (this.bytes > MAX_INLINED_REF_BYTES) {
      throw new GatewayError(
        400,
        `Invalid request: the JSON Schema of ${place.label} grows past ${MAX_INLINED_REF_BYTES} bytes once its $refs are inlined ` +
          '(Gemini schemas have no $ref); a recursive $ref that branches multiplies at every level. Send a smaller or non-recursive schema',
        { reason: 'schema_too_large', field: place.field, limit_bytes: MAX_INLINED_REF_BYTES },
      );
    }
  }
}

/** Where a schema sits in the request, for the error: the request field, and words for the message. */
export interface SchemaPlace {
  field: string;
  label: string;
}

interface Conversion {
  root: Json;
  budget: SchemaBudget;
  place: SchemaPlace;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolveRef(ref: string, root: Json): unknown {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const defs = root[match[1]];
  const name = match[2].replace(/~1/g, '/').replace(/~0/g, '~');
  return isObject(defs) ? defs[name] : undefined;
}

/** Union of the keys two converted schemas carry; used for allOf. */
function merge(into: Json, from: Json): Json {
  for (const [key, value] of Object.entries(from)) {
    if (key === 'properties' && isObject(into.properties) && isObject(value))
      into.properties = { ...into.properties, ...value };
    else if (key === 'required' && Array.isArray(into.required) && Array.isArray(value))
      into.required = [...new Set([...into.required, ...value])];
    else if (into[key] === undefined) into[key] = value;
  }
  return into;
}

function convertType(schema: Json, out: Json): void {
  const raw = schema.type;
  const names = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(
    (t): t is string => typeof t === 'string',
  );
  const nonNull = names.filter((t) => t !== 'null' && TYPES[t] !== undefined);
  if (names.includes('null')) out.nullable = true;
  if (nonNull.length === 1) out.type = TYPES[nonNull[0]];
  else if (nonNull.length > 1) out.anyOf = nonNull.map((t) => ({ type: TYPES[t] }));
}

function convertEnum(schema: Json, out: Json): void {
  const values = Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;
  if (!values) return;
  const strings = values.filter((v): v is string => typeof v === 'string');
  if (strings.length === values.length && strings.length > 0) {
    out.enum = strings;
    return;
  }
  // Gemini enums hold strings; other values stay a hint for the model instead of a constraint.
  const note = `Allowed values: ${values.map((v) => JSON.stringify(v)).join(', ')}.`;
  out.description = typeof out.description === 'string' && out.description !== '' ? `${out.description} ${note}` : note;
}

function convertNode(input: unknown, conversion: Conversion, depth: number): Json {
  if (!isObject(input)) return {};
  const schema = input;
  if (typeof schema.$ref === 'string') {
    const target = depth < MAX_REF_DEPTH ? resolveRef(schema.$ref, conversion.root) : undefined;
    // Sibling keywords of a $ref (e.g. description) still apply on top of the target.
    const { $ref: _ref, ...siblings } = schema;
    return merge(convertNode(siblings, conversion, depth), convertNode(target, conversion, depth + 1));
  }

  const out: Json = {};
  if (typeof schema.title === 'string') out.title = schema.title;
  if (typeof schema.description === 'string') out.description = schema.description;
  convertType(schema, out);
  if (schema.nullable === true) out.nullable = true;
  if (typeof schema.format === 'string' && typeof out.type === 'string' && FORMATS[out.type]?.includes(schema.format))
    out.format = schema.format;
  convertEnum(schema, out);
  for (const key of COUNTS) {
    const value = schema[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) out[key] = value;
  }
  if (typeof schema.minimum === 'number') out.minimum = schema.minimum;
  if (typeof schema.maximum === 'number') out.maximum = schema.maximum;
  if (typeof schema.pattern === 'string') out.pattern = schema.pattern;
  if (schema.default !== undefined) out.default = schema.default;
  if (schema.example !== undefined) out.example = schema.example;
  else if (Array.isArray(schema.examples) && schema.examples.length > 0) out.example = schema.examples[0];

  if (isObject(schema.properties)) {
    const properties: Json = {};
    for (const [name, value] of Object.entries(schema.properties))
      properties[name] = convertNode(value, conversion, depth);
    // Gemini rejects an OBJECT with an empty `properties` map; leaving it out means "any object".
    if (Object.keys(properties).length > 0) out.properties = properties;
    const required = Array.isArray(schema.required)
      ? schema.required.filter((n): n is string => typeof n === 'string' && n in properties)
      : [];
    if (required.length > 0) out.required = required;
    if (Array.isArray(schema.propertyOrdering)) {
      const ordering = schema.propertyOrdering.filter((n): n is string => typeof n === 'string' && n in properties);
      if (ordering.length > 0) out.propertyOrdering = ordering;
    }
  }
  if (isObject(schema.items)) out.items = convertNode(schema.items, conversion, depth);
  else if (Array.isArray(schema.items) && schema.items.length > 0) {
    out.items =
      schema.items.length === 1
        ? convertNode(schema.items[0], conversion, depth)
        : { anyOf: schema.items.map((s) => convertNode(s, conversion, depth)) };
  }

  const alternatives = [
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(Array.isArray(schema.oneOf) ? schema.oneOf : []),
  ];
  if (alternatives.length > 0) {
    // `{type: "null"}` alternatives become nullable; a single remaining alternative is inlined.
    const nonNull = alternatives.filter((s) => !(isObject(s) && s.type === 'null'));
    if (nonNull.length < alternatives.length) out.nullable = true;
    const converted = nonNull.map((s) => convertNode(s, conversion, depth));
    if (converted.length === 1) merge(out, converted[0]);
    else if (converted.length > 1) out.anyOf = converted;
  }
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) merge(out, convertNode(part, conversion, depth));
  }
  // Only what an inlined $ref emits is counted: the rest is the client's own schema, no larger than its body.
  if (depth > 0) conversion.budget.spend(out, conversion.place);
  return out;
}

/**
 * A client JSON Schema → Gemini Schema; unusable input yields `{}` (any value). Throws GatewayError(400) only when its
 * inlined $refs pass the request's `budget` (one per request; `place` says where the schema sits in it).
 */
export function toGeminiSchema(
  schema: unknown,
  budget = new SchemaBudget(),
  place: SchemaPlace = RESPONSE_FORMAT,
): Record<string, unknown> {
  return isObject(schema) ? convertNode(schema, { root: schema, budget, place }, 0) : {};
}

const RESPONSE_FORMAT: SchemaPlace = { field: 'response_format', label: 'response_format' };

/**
 * Function parameters: Gemini wants an OBJECT schema or no `parameters` at all, and rejects an OBJECT with
 * no properties, so a function without arguments gets none.
 */
export function toGeminiParameters(
  schema: unknown,
  budget = new SchemaBudget(),
  place: SchemaPlace = { field: 'tools', label: 'a tool' },
): Record<string, unknown> | undefined {
  if (!isObject(schema)) return undefined;
  const converted = toGeminiSchema(schema, budget, place);
  if (converted.properties === undefined && (converted.type === 'OBJECT' || converted.type === undefined))
    return undefined;
  return converted;
}
