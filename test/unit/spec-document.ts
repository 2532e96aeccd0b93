// Shared loader for the spec tests: the emitted OpenAPI document and an Ajv instance that resolves its
// `#/components/schemas/...` refs, configured like openapi-backend's (strict off, OpenAPI formats known).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

// ajv and ajv-formats are CommonJS; under NodeNext their default export is the module object.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { operationId?: string; [k: string]: unknown }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
  [k: string]: unknown;
}

export function loadDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(`${repoRoot}generated/openapi.json`, 'utf8')) as OpenApiDocument;
}

/** Compiles validators for named component schemas (refs between components resolve through the document). */
export function schemaValidators(doc: OpenApiDocument): (name: string) => ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  // Only `components` is registered: refs are `#/components/schemas/X`, relative to this schema's root.
  ajv.addSchema({ $id: 'openapi', components: doc.components });
  const cache = new Map<string, ValidateFunction>();
  return (name) => {
    let validate = cache.get(name);
    if (!validate) {
      if (!doc.components.schemas[name]) throw new Error(`no schema ${name}`);
      validate = ajv.compile({ $ref: `openapi#/components/schemas/${name}` });
      cache.set(name, validate);
    }
    return validate;
  };
}
