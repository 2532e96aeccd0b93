// Invalid values by mutation: walk a valid value together with its schema and break it at one place — a required
// property removed, a wrong type, null where not nullable, an extra level of nesting, a value outside an enum or
// a range, a string or array of the wrong length, a pattern mismatch, a huge string. Each mutated value is then
// judged by the validator: only values the schema really rejects are expected to be rejected by the server (a
// string wrapped in an array may be valid for `string | string[]`; a huge string is valid without `maxLength`).
import type { OpenApiDocument, Schema, SchemaNode } from './openapi-document.js';
import type { SchemaValidator } from './schema-validator.js';

export type JsonPath = (string | number)[];

export interface Mutation {
  /** What was broken and where, e.g. `messages[0].role: not in enum`. */
  description: string;
  /** Builds the mutated value (lazily: huge strings are only built for the mutation fast-check picks). */
  build(): unknown;
}

/** Length of the "huge string" mutation: far beyond any field a client legitimately sends. */
export const HUGE_STRING_LENGTH = 100_000;

interface Site {
  path: JsonPath;
  schema: Schema;
  value: unknown;
}

export function formatPath(path: JsonPath): string {
  if (path.length === 0) return '(body)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** Every single-point mutation of `value` (valid against `node`) that the schema applies to. */
export function mutationsOf(
  doc: OpenApiDocument,
  validator: SchemaValidator,
  node: SchemaNode,
  value: unknown,
): Mutation[] {
  const sites: Site[] = [];
  collectSites({ doc, validator, out: sites }, node, { value, path: [] });
  const mutations: Mutation[] = [];
  for (const site of sites) {
    const where = formatPath(site.path);
    for (const [what, make] of breakages(site)) {
      mutations.push({ description: `${where}: ${what}`, build: () => replaceAt(value, site.path, make) });
    }
    if (isObject(site.value)) {
      for (const name of site.schema.required ?? []) {
        if (name in site.value) {
          mutations.push({
            description: `${where}: required property "${name}" removed`,
            build: () => removeAt(value, [...site.path, name]),
          });
        }
      }
    }
  }
  return mutations;
}

/** A walk over one valid value: the document and validator it reads, the sites it finds. */
interface SiteWalk {
  doc: OpenApiDocument;
  validator: SchemaValidator;
  out: Site[];
}

/** `at`: the value under `input`'s schema and where it sits in the whole value. */
function collectSites(walk: SiteWalk, input: SchemaNode, at: { value: unknown; path: JsonPath }): void {
  const { doc, validator, out } = walk;
  const { value, path } = at;
  const node = doc.resolve(input);
  const schema = node.schema;
  if (schema.allOf && schema.allOf.length === 1 && !schema.properties) {
    collectSites(walk, { pointer: `${node.pointer}/allOf/0`, schema: schema.allOf[0] }, at);
    return;
  }
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches) {
    const keyword = schema.oneOf ? 'oneOf' : 'anyOf';
    const index = branchOf(validator, { pointer: node.pointer, keyword, branches, schema }, value);
    if (index >= 0) collectSites(walk, { pointer: `${node.pointer}/${keyword}/${index}`, schema: branches[index] }, at);
    return;
  }
  out.push({ path, schema, value });
  if (isObject(value)) {
    const parts = schema.allOf
      ? schema.allOf.map((part, i) => doc.resolve({ pointer: `${node.pointer}/allOf/${i}`, schema: part }))
      : [node];
    for (const part of parts) {
      for (const [name, child] of Object.entries(part.schema.properties ?? {})) {
        if (name in value) {
          const pointer = `${part.pointer}/properties/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
          collectSites(walk, { pointer, schema: child }, { value: value[name], path: [...path, name] });
        }
      }
    }
  } else if (Array.isArray(value) && schema.items) {
    // The first few items stand for the rest: mutating item 7 finds nothing item 0 would not.
    for (const [i, item] of value.slice(0, 3).entries()) {
      collectSites(
        walk,
        { pointer: `${node.pointer}/items`, schema: schema.items },
        { value: item, path: [...path, i] },
      );
    }
  }
}

/** Which branch of a oneOf/anyOf the valid value took: by discriminator when there is one, else by validation. */
function branchOf(
  validator: SchemaValidator,
  { pointer, keyword, branches, schema }: { pointer: string; keyword: string; branches: Schema[]; schema: Schema },
  value: unknown,
): number {
  const discriminator = schema.discriminator;
  if (discriminator?.mapping && isObject(value)) {
    const target = discriminator.mapping[String(value[discriminator.propertyName])];
    const index = branches.findIndex((b) => b.$ref === target);
    if (index >= 0) return index;
  }
  return branches.findIndex((_, i) => validator.isValid(`${pointer}/${keyword}/${i}`, value));
}

type Breakage = [what: string, make: () => unknown];

/** The ways to break the value at one site, from what its schema says about it. */
function breakages(site: Site): Breakage[] {
  const { schema, value } = site;
  const out: Breakage[] = [];
  const wrong = WRONG_TYPE[schema.type ?? ''];
  if (wrong)
    out.push([
      `wrong type (${typeof wrong === 'object' ? 'array' : typeof wrong} instead of ${schema.type})`,
      () => wrong,
    ]);
  if (!schema.nullable && value !== null) out.push(['null where the schema does not allow it', () => null]);
  out.push(['extra nesting (wrapped in an array)', () => [value]]);
  out.push(['extra nesting (wrapped in an object)', () => ({ value })]);
  if (schema.enum)
    out.push([
      'value outside the enum',
      () => (typeof schema.enum![0] === 'number' ? 987654321 : 'not-a-documented-value'),
    ]);
  if (schema.type === 'integer' || schema.type === 'number') out.push(...numberBreakages(schema, value));
  if (schema.type === 'string') out.push(...stringBreakages(schema));
  if (schema.type === 'array' && Array.isArray(value)) {
    if (schema.maxItems !== undefined) {
      const filler = value.length > 0 ? value[value.length - 1] : null;
      out.push([
        `more than maxItems ${schema.maxItems}`,
        () => [...value, ...Array(schema.maxItems! + 1 - value.length).fill(filler)],
      ]);
    }
    if ((schema.minItems ?? 0) > 0)
      out.push([`fewer than minItems ${schema.minItems}`, () => value.slice(0, schema.minItems! - 1)]);
  }
  if (schema.additionalProperties === false && isObject(value)) {
    out.push(['unknown property in a closed object', () => ({ ...value, unexpected_property: true })]);
  }
  return out;
}

const WRONG_TYPE: Record<string, unknown> = {
  string: 12345,
  integer: 'twelve',
  number: 'twelve',
  boolean: 'true',
  object: 'an object was expected',
  array: { not: 'an array' },
};

function numberBreakages(schema: Schema, value: unknown): Breakage[] {
  const out: Breakage[] = [];
  if (schema.minimum !== undefined) {
    const below = schema.exclusiveMinimum ? schema.minimum : schema.minimum - 1;
    out.push([`below minimum ${schema.minimum}`, () => below]);
  }
  if (schema.maximum !== undefined) {
    const above = schema.exclusiveMaximum ? schema.maximum : schema.maximum + 1;
    out.push([`above maximum ${schema.maximum}`, () => above]);
  }
  if (schema.type === 'integer') {
    out.push(['fraction where an integer is required', () => (typeof value === 'number' ? value : 0) + 0.5]);
    if (schema.format === 'int32') out.push(['int32 overflow', () => 2 ** 31]);
    if (schema.format === 'int64') out.push(['int64 overflow', () => 1e19]);
  }
  return out;
}

function stringBreakages(schema: Schema): Breakage[] {
  const out: Breakage[] = [];
  if (schema.maxLength !== undefined)
    out.push([`longer than maxLength ${schema.maxLength}`, () => 'x'.repeat(schema.maxLength! + 1)]);
  if ((schema.minLength ?? 0) > 0)
    out.push([`shorter than minLength ${schema.minLength}`, () => 'x'.repeat(schema.minLength! - 1)]);
  if (schema.pattern) {
    const regex = new RegExp(schema.pattern, 'u');
    const miss = ['', ' ', '!!', '\n', 'ü'].find((s) => !regex.test(s));
    if (miss !== undefined) out.push([`does not match pattern ${schema.pattern}`, () => miss]);
  }
  if (schema.format === 'date-time') out.push(['not a date-time', () => 'yesterday at noon']);
  out.push([`huge string (${HUGE_STRING_LENGTH} characters)`, () => 'A'.repeat(HUGE_STRING_LENGTH)]);
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object or array on a path a site was collected from: each key of the path exists in it. */
type JsonContainer = Record<string | number, unknown>;

function replaceAt(root: unknown, path: JsonPath, make: () => unknown): unknown {
  if (path.length === 0) return make();
  const copy = structuredClone(root);
  let parent = copy as JsonContainer;
  for (const key of path.slice(0, -1)) parent = parent[key] as JsonContainer;
  parent[path[path.length - 1]] = make();
  return copy;
}

function removeAt(root: unknown, path: JsonPath): unknown {
  const copy = structuredClone(root);
  let parent = copy as JsonContainer;
  for (const key of path.slice(0, -1)) parent = parent[key] as JsonContainer;
  delete parent[path[path.length - 1]];
  return copy;
}
